/**
 * The units the editor's audit analyses a document in (incremental.ts): groups of functions.
 * A function is analysed with every function it names or that names it (a transitive closure):
 * within a class program, a method named as an attribute by another (`self.kernel(...)`,
 * `pl.submit(self.k, ...)`; a local variable of the same name is no reference); across
 * programs, a JIT kernel or `@pl.inline` helper (the module's or an imported one, `ops.helper`)
 * named by a function of any program (PyPTO inlines a helper at its call sites, so its findings
 * depend on its callers and theirs on it). A class program without functions is a unit of its
 * own. Names are matched on the text as words (comments and strings included): a match too many
 * only joins two units. Analysing a module unit by unit gives the findings of analysing it
 * whole: the rules relate two functions only through a call or submit of one by the other.
 */
import type { Program } from '../ir/nodes.js';
import type { SourceText } from '../report/source.js';

/** A piece of a unit's text: a function, or a stretch of a class program outside its functions. */
export interface Piece {
  start: number;
  end: number;
}

/** A group of functions analysed together, and the pieces of text their analysis depends on. */
export interface Unit {
  /** The programs the unit's functions belong to, in module order. */
  programs: Program[];
  /** Their indices in the module (a program keeps its index in the text an edit leaves). */
  indices: number[];
  /** Per program index, the names of the unit's functions (every function of a program without any). */
  functions: Map<number, Set<string>>;
  /**
   * In source order: the unit's functions, and each of its class programs' stretches outside
   * its functions (its decorator and class line, what lies between its functions).
   */
  pieces: Piece[];
  /** The unit's functions' spans alone (no other unit's piece overlaps one). */
  bodies: Piece[];
  /** How many characters the pieces span. */
  chars: number;
}

/** Whether char code `c` may continue an identifier (a letter, a digit, `_`; any non-ASCII character). */
const wordChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;

/** The identifiers of a text: those after a `.` (attributes: `self.kernel`) and the others (bare). */
export interface Words {
  attr: ReadonlySet<string>;
  bare: ReadonlySet<string>;
}

/** The words of functions' texts found by an earlier call (by text; read only) and those found now (the next call's `previous`). */
export interface WordsMemo {
  readonly previous: ReadonlyMap<string, Words>;
  readonly next: Map<string, Words>;
}

/** The identifiers of `text` in [start, end) (see Words). */
function wordsOf(text: string, start: number, end: number): Words {
  const attr = new Set<string>();
  const bare = new Set<string>();
  let dot = false;
  for (let i = start; i < end; ) {
    const c = text.charCodeAt(i);
    if (!wordChar(c)) {
      // (Spaces between a `.` and the name keep it an attribute.)
      if (c === 46) dot = true;
      else if (c !== 32 && c !== 9 && c !== 10 && c !== 13) dot = false;
      i++;
      continue;
    }
    let j = i + 1;
    while (j < end && wordChar(text.charCodeAt(j))) j++;
    if (!(c >= 48 && c <= 57)) (dot ? attr : bare).add(text.slice(i, j));
    dot = false;
    i = j;
  }
  return { attr, bare };
}

/** The stretches of a class program's span outside its functions. */
function gapsOf(p: Program): Piece[] {
  if (p.jit) return [];
  const fs = [...p.functions].sort((a, b) => a.start - b.start);
  const out: Piece[] = [];
  let at = p.start;
  for (const f of fs) {
    out.push({ start: at, end: Math.max(at, f.start) });
    at = Math.max(at, f.end);
  }
  out.push({ start: at, end: Math.max(at, p.end) });
  return out;
}

/** The words of a function's text, through `memo` when given. */
function wordsThrough(text: string, start: number, end: number, memo: WordsMemo | undefined): Words {
  if (!memo) return wordsOf(text, start, end);
  const key = text.slice(start, end);
  let w = memo.previous.get(key) ?? memo.next.get(key);
  w ??= wordsOf(text, start, end);
  memo.next.set(key, w);
  return w;
}

/**
 * The module's functions grouped into units (see the file comment); units in source order.
 * `words`: the functions' words an earlier call found (a function's text unchanged is not read again).
 */
export function analysisUnits(source: SourceText, programs: readonly Program[], words?: WordsMemo): Unit[] {
  // One node per function (a class program without functions: one node for the program).
  const nodes: { pi: number; name: string | null; start: number; end: number }[] = [];
  programs.forEach((p, pi) => {
    if (p.functions.length === 0) nodes.push({ pi, name: null, start: p.start, end: p.end });
    for (const f of p.functions) nodes.push({ pi, name: f.name, start: f.start, end: f.end });
  });
  const parent = nodes.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const union = (a: number, b: number): void => {
    parent[find(a)] = find(b);
  };
  // The functions of each program by name (a name written twice: one node for both), and the JIT ones by name.
  const byName = new Map<number, Map<string, number>>();
  const jitByName = new Map<string, number[]>();
  nodes.forEach((n, i) => {
    if (n.name === null) return;
    let m = byName.get(n.pi);
    if (!m) byName.set(n.pi, (m = new Map()));
    const same = m.get(n.name);
    if (same !== undefined) union(i, same);
    else m.set(n.name, i);
    if (programs[n.pi]!.jit) {
      // (An imported helper is named as the module calls it, `ops.wait_one`: its last word is matched.)
      const word = n.name.slice(n.name.lastIndexOf('.') + 1);
      const js = jitByName.get(word) ?? [];
      js.push(i);
      jitByName.set(word, js);
    }
  });
  nodes.forEach((n, i) => {
    if (n.name === null) return;
    const { attr, bare } = wordsThrough(source.text, n.start, n.end, words);
    const own = byName.get(n.pi)!;
    for (const w of attr) {
      const j = own.get(w);
      if (j !== undefined) union(i, j);
    }
    // (A helper imported with its module, `ops.wait_one(...)`, is named as an attribute.)
    for (const ws of [bare, attr]) for (const w of ws) for (const j of jitByName.get(w) ?? []) union(i, j);
  });
  const byRoot = new Map<number, Unit>();
  const out: Unit[] = [];
  // (A class program's stretches outside its functions, by program index: the same for each of its units.)
  const gaps = new Map<number, Piece[]>();
  for (const [i, n] of nodes.entries()) {
    const r = find(i);
    let u = byRoot.get(r);
    if (!u) {
      u = { programs: [], indices: [], functions: new Map(), pieces: [], bodies: [], chars: 0 };
      byRoot.set(r, u);
      out.push(u);
    }
    let names = u.functions.get(n.pi);
    if (!names) {
      u.functions.set(n.pi, (names = new Set()));
      u.indices.push(n.pi);
      let g = gaps.get(n.pi);
      if (!g) gaps.set(n.pi, (g = gapsOf(programs[n.pi]!)));
      u.pieces.push(...g);
    }
    // (A program without functions: its one stretch is its whole span.)
    if (n.name === null) continue;
    names.add(n.name);
    u.pieces.push({ start: n.start, end: n.end });
    u.bodies.push({ start: n.start, end: n.end });
  }
  for (const u of out) {
    u.indices.sort((a, b) => a - b);
    u.programs = u.indices.map((i) => programs[i]!);
    u.pieces.sort((a, b) => a.start - b.start || a.end - b.end);
    u.chars = u.pieces.reduce((k, x) => k + (x.end - x.start), 0);
  }
  return out;
}
