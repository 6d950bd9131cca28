import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { RuleSession } from '../passes/rule-session.js';
import { type Diagnostic, DiagnosticError } from '../report/diagnostic.js';
import { renderDiagnostics } from '../report/text.js';
import { withPrebuiltPlans } from '../runner/prebuilt-plans.js';
import { cacheSpecOf, ruleCacheOf } from '../runner/rule-cache.js';

/** Where a command writes and what it knows of its terminal; tests pass a capturing implementation. */
export interface CliIO {
  stdout(text: string): void;
  /** Writes bytes to stdout as they are (a file's non-UTF-8 bytes). Default: stdout(latin1 text). */
  stdoutBytes?(bytes: Uint8Array): void;
  stderr(text: string): void;
  /** Whether stdout / stderr are terminals (colour, progress). Default: not. */
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  /** Environment variables the CLI reads (NO_COLOR, PTOLOG_DEBUG). Default: none. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Reads all of standard input (for `-`): its bytes (kept byte for byte), or text. */
  readStdin?: () => Promise<string | Uint8Array>;
  /** The default of --jobs. Default: 1. */
  cpus?: number;
  /**
   * Rule programs loaded by earlier runs, reused by this one (a test harness or an embedding
   * calling `main` many times). Default: each run loads the rules it needs.
   */
  ruleSession?: RuleSession;
  /** --no-cache: compile rule files from source, read and write no compiled-rules cache. */
  noCache?: boolean;
  /**
   * `lsp`: the language server's analysis thread, started by bin/ptolog.js before the CLI's
   * modules load (it loads meanwhile). Default: the server starts its own.
   */
  analysisThread?: Worker;
}

async function readAllStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks);
}

/** A reader closed our stdout (`ptolog ... | head`): stop quietly, as other command-line tools do. */
function isEpipe(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as NodeJS.ErrnoException).code === 'EPIPE';
}

let epipeHandled = false;
function quietOnEpipe(): void {
  if (epipeHandled) return;
  epipeHandled = true;
  process.stdout.on('error', (e) => {
    if (isEpipe(e)) process.exit(0);
    throw e;
  });
}

/** The real process streams. */
export const processIO: CliIO = {
  stdout: (t) => {
    quietOnEpipe();
    try {
      process.stdout.write(t);
    } catch (e) {
      if (isEpipe(e)) process.exit(0);
      throw e;
    }
  },
  stdoutBytes: (b) => {
    quietOnEpipe();
    try {
      process.stdout.write(b);
    } catch (e) {
      if (isEpipe(e)) process.exit(0);
      throw e;
    }
  },
  stderr: (t) => void process.stderr.write(t),
  get stdoutIsTTY() {
    return process.stdout.isTTY === true;
  },
  get stderrIsTTY() {
    return process.stderr.isTTY === true;
  },
  env: process.env,
  readStdin: readAllStdin,
  cpus: availableParallelism(),
};

/** Exit codes of every command: 0 clean, 1 findings, 2 could not run. */
export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_FAILURE = 2;

/** Writes diagnostics to stderr in the text format. */
export function reportDiagnostics(io: CliIO, ds: readonly Diagnostic[]): void {
  if (ds.length > 0) io.stderr(`${renderDiagnostics(ds)}\n`);
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
    if ((io.env ?? process.env)['PTOLOG_DEBUG'] && e instanceof Error && e.stack) io.stderr(`${e.stack}\n`);
    return EXIT_FAILURE;
  }
}

/**
 * The rule session of one CLI run: the caller's (`io.ruleSession`) or a new one, seen from the
 * working directory, with the build's prebuilt plan functions (read when a plan is first compiled).
 */
export function ruleSessionOf(io: CliIO): RuleSession {
  if (io.ruleSession) return io.ruleSession.at(process.cwd());
  const spec = cacheSpecOf(io.env ?? {}, io.noCache === true);
  return withPrebuiltPlans(new RuleSession(process.cwd(), spec ? ruleCacheOf(spec) : undefined), spec);
}

/** Writes a file's text to stdout in the file's own encoding (Latin-1 text: one byte per character). */
export function writeSourceOut(io: CliIO, text: string, encoding: 'utf8' | 'latin1' | undefined): void {
  if (encoding !== 'latin1') {
    io.stdout(text);
    return;
  }
  const bytes = Buffer.from(text, 'latin1');
  if (io.stdoutBytes) io.stdoutBytes(bytes);
  else io.stdout(text);
}
