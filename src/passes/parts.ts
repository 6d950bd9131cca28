/**
 * A module that holds the bodies of helpers imported from other files (Module.parts): findings
 * located in its combined source are located back in each file, and the text edits of a pass are
 * split per file, so `apply` patches each file's own text.
 */
import { respell } from '../frontend/imports.js';
import { type ModulePart, partAt } from '../ir/nodes.js';
import type { Diagnostic, Location } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { SourceEditList } from '../rewrite/patch.js';

/** `d` (found in `combined`, the source of a module with `parts`) located in the file of its part. */
export function localize(d: Diagnostic, combined: SourceText, parts: readonly ModulePart[] | undefined): Diagnostic {
  if (!parts || !d.location || d.location.source !== combined) return d;
  const part = partAt(parts, d.location.start);
  const at = (l: Location): Location => {
    if (l.source !== combined) return l;
    const p = partAt(parts, l.start);
    return { source: p.source, start: l.start - p.base, end: l.end - p.base };
  };
  const out: Diagnostic = { ...d, location: at(d.location) };
  if (d.related) out.related = d.related.map((r) => ({ ...r, location: at(r.location) }));
  if (d.fixEdits) out.fixEdits = d.fixEdits.map((e) => ({ ...e, start: e.start - part.base, end: e.end - part.base }));
  return out;
}

/**
 * The text edits of a module with `parts`, per part (index into `parts`), with offsets into that
 * part's own text; inserted text is written with each part's own spelling of `pl` / `pld` (the
 * edits are printed in part 0's).
 */
export function splitEdits(parts: readonly ModulePart[], edits: SourceEditList): SourceEditList[] {
  const out = parts.map(() => new SourceEditList());
  const own = parts[0]!.spell;
  for (let i = 0; i < edits.length; i++) {
    const start = edits.start.at(i);
    let k = parts.length - 1;
    while (k > 0 && parts[k]!.base > start) k--;
    const p = parts[k]!;
    const kind = edits.kind(i);
    let a = edits.a[i]!;
    if (k > 0 && (kind === 'insertAfter' || kind === 'insertBefore' || kind === 'replace')) a = spelled(a, own, p.spell);
    const b = kind === 'addKeyword' && k > 0 ? spelled(edits.value(i), own, p.spell) : edits.value(i);
    out[k]!.push(kind, start - p.base, edits.end.at(i) - p.base, a as string | readonly string[], b as string);
  }
  return out;
}

/** Text printed with spelling `from` of `pl` / `pld`, written with spelling `to`. */
function spelled<T extends string | readonly string[]>(text: T, from: { pl: string; pld: string }, to: { pl: string; pld: string }): T {
  if (from.pl === to.pl && from.pld === to.pld) return text;
  const one = (t: string): string => {
    const canonical = t.replace(new RegExp(`(?<![\\w.])(${literal(from.pld)}|${literal(from.pl)})\\.`, 'g'), (_m, mod: string) =>
      mod === from.pld ? 'pld.' : 'pl.',
    );
    return respell(canonical, to);
  };
  return (typeof text === 'string' ? one(text) : text.map(one)) as T;
}

function literal(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
