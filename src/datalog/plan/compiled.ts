// A checked rule program as plain data (JSON text) and back: what the compiled-rules cache stores.
// The form carries a version tag; source texts are not stored (only their paths, in one table:
// the cache re-reads and compares every input file before it trusts an entry).
import type { Diagnostic, Location } from '../../report/diagnostic.js';
import { SourceText } from '../../report/source.js';
import { type ProgramClause, RuleProgram, type SharedMemos } from '../check/program.js';
import type { Clause, Kind, Term } from '../syntax/ast.js';

/** The version tag of the plain form: bump it whenever RuleProgram, the AST or a Diagnostic changes shape. */
export const COMPILED_FORMAT = 'ptolog-compiled-rules/3';

/** A checked program and the warnings its checks gave. */
export interface CheckedRules {
  program: RuleProgram;
  warnings: Diagnostic[];
}

/** The plain form: a JSON value with sources as `{"$s": i}`, locations `{"$l": [i, start, end]}`, bigints `{"$b": "12"}`, Maps `{"$m": [[k, v], ...]}`, shared objects `{"$d": id, "v": ...}` / `{"$r": id}`. */
export interface PlainRules {
  format: string;
  /** Source paths, in the program's source order. */
  paths: string[];
  /** The encoded `{ relations, clauses, strata, warnings, edges }` (edges: the program's dependency edges, not computed again). */
  body: unknown;
}

/**
 * The plain form of a checked program; `pathOf` maps each source path to the path stored (the
 * cache stores paths relative to a relocatable root).
 */
export function toPlain(rules: CheckedRules, pathOf: (path: string) => string = (p) => p): PlainRules {
  const { program, warnings } = rules;
  // By path: a session's parse memo may hand a program locations into an equal source of another load.
  const sources = new Map<string, number>();
  const paths: string[] = [];
  const sourceIndex = (s: SourceText): number => {
    let i = sources.get(s.path);
    if (i === undefined) {
      i = paths.length;
      sources.set(s.path, i);
      paths.push(pathOf(s.path));
    }
    return i;
  };
  for (const s of program.sources) sourceIndex(s);
  const root = { relations: program.relations, clauses: program.clauses, strata: program.strata, warnings, edges: program.edges };
  // Facts (the op catalog: most clauses) in a flat form, a tenth of the generic one's objects.
  const factOf = (pc: ProgramClause): unknown[] | undefined => {
    const c = pc.clause;
    const h = c.head;
    if (!c.isFact || c.body.length > 0 || pc.varKinds.size > 0 || !exactKeys(pc, 4) || !exactKeys(c, 4) || !exactKeys(h, 4))
      return undefined;
    if ([pc, c, h, c.loc, h.loc, h.nameLoc].some((x) => shared.has(x))) return undefined;
    const src = c.loc.source;
    if (h.loc.source !== src || h.nameLoc.source !== src) return undefined;
    const out: unknown[] = [
      pc.id,
      pc.head,
      sourceIndex(src),
      h.rel,
      c.loc.start,
      c.loc.end,
      h.loc.start,
      h.loc.end,
      h.nameLoc.start,
      h.nameLoc.end,
    ];
    for (const a of h.args) {
      if ((a.kind !== 'str' && a.kind !== 'num') || !exactKeys(a, 3) || a.loc.source !== src || shared.has(a) || shared.has(a.loc))
        return undefined;
      const small = a.kind === 'num' && a.value >= -MAX_SAFE && a.value <= MAX_SAFE;
      out.push(a.kind === 'str' ? a.value : small ? Number(a.value) : { $b: a.value.toString() }, a.loc.start, a.loc.end);
    }
    return out;
  };

  // Objects reached more than once keep their identity (a disjunctive rule's clauses share locations).
  const seen = new Set<object>();
  const shared = new Set<object>();
  const count = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || v instanceof SourceText) return;
    if (seen.has(v)) {
      shared.add(v);
      return;
    }
    seen.add(v);
    if (v instanceof Map) {
      for (const [k, x] of v) {
        count(k);
        count(x);
      }
    } else if (Array.isArray(v)) for (const x of v) count(x);
    else for (const x of Object.values(v)) count(x);
  };
  count(root);
  const ids = new Map<object, number>();
  const encode = (v: unknown): unknown => {
    if (typeof v === 'bigint') return { $b: v.toString() };
    if (typeof v !== 'object' || v === null) {
      if (typeof v === 'function' || typeof v === 'symbol') throw new Error(`cannot store a ${typeof v} in compiled rules`);
      return v;
    }
    if (v instanceof SourceText) return { $s: sourceIndex(v) };
    if (isLocation(v)) return { $l: [sourceIndex(v.source), v.start, v.end] };
    const id = ids.get(v);
    if (id !== undefined) return { $r: id };
    let out: unknown;
    const own = shared.has(v) ? ids.size : -1;
    if (own >= 0) ids.set(v, own);
    if (v instanceof Map) out = { $m: [...v].map(([k, x]) => [encode(k), encode(x)]) };
    else if (Array.isArray(v)) out = v.map(encode);
    else {
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new Error('cannot store a class instance in compiled rules');
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (x !== undefined) o[k] = encode(x);
      out = o;
    }
    return own >= 0 ? { $d: own, v: out } : out;
  };
  const body = encode({ ...root, clauses: [] }) as Record<string, unknown>;
  body['clauses'] = program.clauses.map((pc) => {
    const f = factOf(pc);
    return f ? { $f: f } : encode(pc);
  });
  return { format: COMPILED_FORMAT, paths, body };
}

/** A Location (`{ source, start, end }` and nothing else): stored as `{"$l": [source, start, end]}`. */
function isLocation(v: object): v is Location {
  if (!('source' in v) || !(v.source instanceof SourceText)) return false;
  let n = 0;
  for (const k in v) if (++n > 3 || (k !== 'source' && k !== 'start' && k !== 'end')) return false;
  return n === 3;
}

/** Thrown by fromPlain on anything that is not a well-formed plain form of this version. */
export class BadCompiledRules extends Error {}

/**
 * The program a plain form describes (made of `plain`'s own arrays and objects: the caller gives
 * it up, as JSON.parse returned it); `sourceOf(path)` gives the source text of each stored path
 * (the caller has read and verified it). `facts`, when given, holds fact clauses decoded before
 * (by source, then start offset): a fact equal to one there is that clause, not a copy (the
 * programs of one caller share their op catalog's thousands); `shared`, the program's store of
 * memos it shares with the caller's other programs (RuleProgram). Throws BadCompiledRules on a
 * malformed form.
 */
export function fromPlain(
  plain: PlainRules,
  sourceOf: (storedPath: string) => SourceText,
  facts?: WeakMap<SourceText, Map<number, Clause>>,
  shared?: SharedMemos,
): CheckedRules {
  if (plain === null || typeof plain !== 'object' || plain.format !== COMPILED_FORMAT || !Array.isArray(plain.paths)) {
    throw new BadCompiledRules('not compiled rules of this version');
  }
  const byPath = new Map<string, SourceText>();
  const sources = plain.paths.map((p) => {
    if (typeof p !== 'string') throw new BadCompiledRules('a source path is not a string');
    let s = byPath.get(p);
    if (!s) byPath.set(p, (s = sourceOf(p)));
    return s;
  });
  const defs = new Map<number, unknown>();
  // A fact has no variables: its facts share one empty map of their kinds (only ever read).
  const noVars = new Map<string, Kind>();
  // In place: the parsed JSON's arrays and plain objects become the program's (no copy of each).
  const decode = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = decode(v[i]);
      return v;
    }
    const o = v as Record<string, unknown>;
    if ('$l' in o) {
      const l = o.$l as unknown[];
      const source = Array.isArray(l) ? sources[l[0] as number] : undefined;
      if (!source || typeof l[1] !== 'number' || typeof l[2] !== 'number') throw new BadCompiledRules('a bad location');
      return { source, start: l[1], end: l[2] };
    }
    if ('$s' in o) {
      const s = sources[o.$s as number];
      if (!s) throw new BadCompiledRules('a source index is out of range');
      return s;
    }
    if ('$b' in o) {
      if (typeof o.$b !== 'string' || !/^-?\d+$/.test(o.$b)) throw new BadCompiledRules('a bad number');
      return BigInt(o.$b);
    }
    if ('$r' in o) {
      if (!defs.has(o.$r as number)) throw new BadCompiledRules('a reference to an undefined object');
      return defs.get(o.$r as number);
    }
    if ('$d' in o) {
      // Shared objects are trees (no cycles): decode, then register for later references.
      const x = decode(o.v);
      defs.set(o.$d as number, x);
      return x;
    }
    if ('$f' in o) return factFrom(o.$f, sources, noVars, facts);
    if ('$m' in o) {
      if (!Array.isArray(o.$m)) throw new BadCompiledRules('a bad map');
      return new Map(o.$m.map((e) => (Array.isArray(e) && e.length === 2 ? [decode(e[0]), decode(e[1])] : badEntry())));
    }
    for (const k in o) o[k] = decode(o[k]);
    return o;
  };
  const root = decode(plain.body) as { relations?: unknown; clauses?: unknown; strata?: unknown; warnings?: unknown; edges?: unknown };
  if (
    root === null ||
    typeof root !== 'object' ||
    ![root.relations, root.clauses, root.strata, root.warnings, root.edges].every(Array.isArray)
  ) {
    throw new BadCompiledRules('the program is incomplete');
  }
  const program = new RuleProgram(
    root.relations as RuleProgram['relations'],
    root.clauses as RuleProgram['clauses'],
    root.strata as RuleProgram['strata'],
    sources,
    root.edges as RuleProgram['edges'],
    shared,
  );
  return { program, warnings: root.warnings as Diagnostic[] };
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Whether `o` has exactly `n` own keys (nothing a flat form would drop). */
function exactKeys(o: object, n: number): boolean {
  let k = 0;
  for (const _ in o) k++;
  return k === n;
}

/** The ProgramClause of a flat fact (see toPlain), its clause the equal one of `memo` when there is one. */
function factFrom(
  f: unknown,
  sources: readonly SourceText[],
  varKinds: Map<string, Kind>,
  memo?: WeakMap<SourceText, Map<number, Clause>>,
): ProgramClause {
  if (!Array.isArray(f) || f.length < 10 || (f.length - 10) % 3 !== 0) throw new BadCompiledRules('a bad fact');
  const source = sources[f[2] as number];
  if (!source || typeof f[3] !== 'string' || !f.every((x, i) => i === 3 || i >= 10 || typeof x === 'number'))
    throw new BadCompiledRules('a bad fact');
  let known = memo?.get(source);
  const seen = known?.get(f[4] as number);
  if (seen && sameFact(seen, f)) return { id: f[0] as number, clause: seen, head: f[1] as number, varKinds };
  if (f.slice(10).some((x, i) => i % 3 !== 0 && typeof x !== 'number')) throw new BadCompiledRules('a bad fact location');
  const loc = (start: unknown, end: unknown): Location => {
    if (typeof start !== 'number' || typeof end !== 'number') throw new BadCompiledRules('a bad fact location');
    return { source, start, end };
  };
  const args: Term[] = [];
  for (let i = 10; i < f.length; i += 3) {
    const v = f[i] as unknown;
    const at = loc(f[i + 1], f[i + 2]);
    if (typeof v === 'string') args.push({ kind: 'str', value: v, loc: at });
    else if (typeof v === 'number' && Number.isSafeInteger(v)) args.push({ kind: 'num', value: BigInt(v), loc: at });
    else if (
      typeof v === 'object' &&
      v !== null &&
      typeof (v as { $b?: unknown }).$b === 'string' &&
      /^-?\d+$/.test((v as { $b: string }).$b)
    ) {
      args.push({ kind: 'num', value: BigInt((v as { $b: string }).$b), loc: at });
    } else throw new BadCompiledRules('a bad fact argument');
  }
  const clause: Clause = {
    head: { rel: f[3], args, loc: loc(f[6], f[7]), nameLoc: loc(f[8], f[9]) },
    body: [],
    loc: loc(f[4], f[5]),
    isFact: true,
  };
  if (memo) {
    if (!known) memo.set(source, (known = new Map()));
    known.set(f[4] as number, clause);
  }
  return { id: f[0] as number, clause, head: f[1] as number, varKinds };
}

/** Whether the decoded fact `c` is what the flat fact `f` (already checked well-formed but for its arguments) decodes to. */
function sameFact(c: Clause, f: unknown[]): boolean {
  const h = c.head;
  if (h.rel !== f[3] || h.args.length !== (f.length - 10) / 3) return false;
  if (c.loc.end !== f[5] || h.loc.start !== f[6] || h.loc.end !== f[7] || h.nameLoc.start !== f[8] || h.nameLoc.end !== f[9]) return false;
  return h.args.every((a, j) => {
    const v = f[10 + 3 * j] as unknown;
    if (a.loc.start !== f[11 + 3 * j] || a.loc.end !== f[12 + 3 * j]) return false;
    if (a.kind === 'str') return v === a.value;
    if (a.kind !== 'num') return false;
    if (typeof v === 'number') return Number.isSafeInteger(v) && BigInt(v) === a.value;
    const b = (v as { $b?: unknown } | null)?.$b;
    return typeof b === 'string' && b === a.value.toString();
  });
}

function badEntry(): never {
  throw new BadCompiledRules('a bad map entry');
}
