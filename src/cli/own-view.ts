// A finding in a helper file is reported by every file of the run that judges the helper, each
// from its own point of view: the note on an import the helper makes that cannot be read says
// where the importing run searched (Python's `sys.path[0]` is the run's file's folder), so two
// runs word it differently. When the helper file is itself a file of the run, its own view wins.
import { resolve } from 'node:path';
import type { Diagnostic } from '../report/diagnostic.js';

/**
 * The findings of each file of a run (`perFile[i]` of the file shown as `files[i]`), without
 * those a file reports inside another file of the run at a place (and with a code) where that
 * other file reports one itself.
 */
export function ownViewFirst(perFile: readonly Diagnostic[][], files: readonly string[]): Diagnostic[][] {
  const keyOf = (d: Diagnostic): string | null =>
    d.location ? [d.code, resolve(d.location.source.path), d.location.start, d.location.end].join('\0') : null;
  const own = new Set<string>();
  perFile.forEach((ds, i) => {
    const self = resolve(files[i] ?? '');
    for (const d of ds) if (d.location && resolve(d.location.source.path) === self) own.add(keyOf(d)!);
  });
  return perFile.map((ds, i) => {
    const self = resolve(files[i] ?? '');
    return ds.filter((d) => !d.location || resolve(d.location.source.path) === self || !own.has(keyOf(d)!));
  });
}
