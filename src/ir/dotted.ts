import type { Expr } from './nodes.js';

/** The dotted name an expression spells (`pl.Tensor` for `pl.Tensor`), or null if it is not one. */
export function dotted(e: Expr): string | null {
  if (e.kind === 'Name') return e.id;
  if (e.kind === 'Attr') {
    const v = dotted(e.value);
    return v === null ? null : `${v}.${e.attr}`;
  }
  return null;
}
