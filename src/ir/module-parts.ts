/** The files of a module whose text joins several (an imported helper's file after its caller's): where each starts. */

import type { SourceText } from '../report/source.js';

/** One file of a module's text (Module.parts): its own source, where it starts in the module's, its spelling of `pl` / `pld`. */
export interface ModulePart {
  source: SourceText;
  base: number;
  spell: { pl: string; pld: string };
}

/** The part offset `o` (of a module's combined source) is in. */
export function partAt(parts: readonly ModulePart[], o: number): ModulePart {
  let lo = 0;
  let hi = parts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (parts[mid]!.base <= o) lo = mid;
    else hi = mid - 1;
  }
  return parts[lo]!;
}
