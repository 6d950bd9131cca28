import { readFileSync, writeFileSync, renameSync, unlinkSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { DiagnosticError } from '../report/diagnostic.js';

/** Reads a text file; an unreadable file is a diagnostic naming the path. */
export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const why = e instanceof Error && 'code' in e && e.code === 'ENOENT' ? 'no such file' : 'it cannot be read';
    throw new DiagnosticError([{ severity: 'error', code: 'unreadable-file', path, message: `cannot read ${path}: ${why}.` }]);
  }
}

/** Replaces a file atomically: writes a temporary file beside it, then renames it over the original. */
export function writeAtomic(path: string, text: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.ptolog.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // the temporary file was never created
    }
    const msg = e instanceof Error ? e.message : String(e);
    throw new DiagnosticError([{ severity: 'error', code: 'write-failed', path, message: `cannot write ${path} (${msg}); the original is unchanged.` }]);
  }
}
