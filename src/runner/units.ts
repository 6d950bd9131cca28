/**
 * The units the editor's audit analyses a document in (incremental.ts): the programs of a module that call the module's JIT
 * kernels or `@pl.inline` helpers are analysed together with them (PyPTO inlines a helper at its
 * call sites, so its findings depend on its callers and theirs on it); a program that calls none
 * is a unit of its own. Analysing a module unit by unit gives the findings of analysing it whole.
 */
import type { Program } from '../ir/nodes.js';
import type { SourceText } from '../report/source.js';

/** A piece of a unit's text: a class program, or one function of a JIT program. */
export interface Piece {
  start: number;
  end: number;
}

/** A group of programs analysed together, and the pieces of text their analysis depends on. */
export interface Unit {
  programs: Program[];
  /** The programs' indices in the module (a program keeps its index in the text an edit leaves). */
  indices: number[];
  /** In source order (a JIT program's functions one by one: its span may hold other programs). */
  pieces: Piece[];
}

/** The pieces of a program: its span, or its functions' for a JIT program. */
function piecesOf(p: Program): Piece[] {
  return p.jit ? p.functions.map((f) => ({ start: f.start, end: f.end })) : [{ start: p.start, end: p.end }];
}

/** Whether `text` calls or names `name` as a bare identifier (not an attribute `x.name`). */
function names(text: string, name: string): boolean {
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w.])${esc}(?!\\w)`).test(text);
}

/**
 * The module's programs grouped into units: a program joins the unit of each JIT program (the
 * module's kernels and inline helpers) one of whose functions it names; units in source order.
 */
export function analysisUnits(source: SourceText, programs: readonly Program[]): Unit[] {
  const parent = programs.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const textOf = (p: Program): string =>
    piecesOf(p)
      .map((x) => source.text.slice(x.start, x.end))
      .join('\n');
  programs.forEach((j, ji) => {
    if (!j.jit) return;
    const fnNames = j.functions.map((f) => f.name);
    programs.forEach((p, pi) => {
      if (pi === ji || find(pi) === find(ji)) return;
      const t = textOf(p);
      if (fnNames.some((n) => names(t, n))) parent[find(pi)] = find(ji);
    });
  });
  const byRoot = new Map<number, Unit>();
  const out: Unit[] = [];
  programs.forEach((p, i) => {
    const r = find(i);
    let u = byRoot.get(r);
    if (!u) {
      u = { programs: [], indices: [], pieces: [] };
      byRoot.set(r, u);
      out.push(u);
    }
    u.programs.push(p);
    u.indices.push(i);
    u.pieces.push(...piecesOf(p));
  });
  for (const u of out) u.pieces.sort((a, b) => a.start - b.start);
  return out;
}
