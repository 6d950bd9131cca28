/** What a front end does not say by default (the CLI says it with `--verbose`). */
import type { Diagnostic } from '../report/diagnostic.js';

/** The `no-program` note of a file that imports PyPTO (it says something); any other is about a file that is no kernels file. */
const NO_PROGRAM_IN_PYPTO_FILE = 'no @pl.program class or @pl.jit kernel here: nothing to read';

/**
 * A `no-program` note on a file that does not import PyPTO (or is empty): not a kernels file, so
 * neither the CLI (unless `--verbose`) nor the language server says anything about it.
 */
export function notAKernelsFile(d: Diagnostic): boolean {
  return d.code === 'no-program' && d.message !== NO_PROGRAM_IN_PYPTO_FILE;
}
