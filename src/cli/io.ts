import { DiagnosticError, type Diagnostic } from '../report/diagnostic.js';
import { renderDiagnostics } from '../report/text.js';

/** Where a command writes; tests pass a capturing implementation. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The real process streams. */
export const processIO: CliIO = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

/** Exit codes of every command: 0 clean, 1 findings, 2 could not run. */
export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_FAILURE = 2;

/** Writes diagnostics to stderr in the text format. */
export function reportDiagnostics(io: CliIO, ds: readonly Diagnostic[]): void {
  if (ds.length > 0) io.stderr(renderDiagnostics(ds) + '\n');
}

/**
 * Runs a command body and turns any failure into an exit code: a DiagnosticError is rendered
 * (file:line:col, code frame) and gives 2; anything else is an internal error, reported in one
 * line without a stack trace (set PTOLOG_DEBUG=1 to see it), also 2.
 */
export async function guarded(io: CliIO, body: () => Promise<number> | number): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof DiagnosticError) {
      reportDiagnostics(io, e.diagnostics);
      return EXIT_FAILURE;
    }
    const msg = e instanceof Error ? e.message : String(e);
    io.stderr(`ptolog: internal error: ${msg}\n`);
    if (process.env['PTOLOG_DEBUG'] && e instanceof Error && e.stack) io.stderr(e.stack + '\n');
    return EXIT_FAILURE;
  }
}
