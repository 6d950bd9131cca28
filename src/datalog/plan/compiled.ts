// A checked rule program as plain data (JSON text) and back: what the compiled-rules cache stores.
// The form carries a version tag; source texts are not stored (only their paths, in one table:
// the cache re-reads and compares every input file before it trusts an entry).
import type { Diagnostic, Location } from '../../report/diagnostic.js';
import { SourceText } from '../../report/source.js';
import { summarize } from '../check/clause-summary.js';
import { FactTable } from '../check/fact-table.js';
import { type ProgramClause, RuleProgram, type SharedMemos } from '../check/program.js';
import type { Clause } from '../syntax/ast.js';
import {
  asciiJson,
  BadCompiledRules,
  CLAUSES_KEY,
  clausePart,
  edgesOf,
  flatEdges,
  flatRelations,
  isLocation,
  PartClauses,
  relationsOf,
  type StoredEntry,
  storedClause,
} from './compiled-clauses.js';
import { BadFacts, type FactRun, joinFacts, type PlainFacts, packFacts, unpackFacts } from './compiled-facts.js';

/** The version tag of the plain form: bump it whenever RuleProgram, the AST or a Diagnostic changes shape. */
export const COMPILED_FORMAT = 'ptolog-compiled-rules/5';

/** A checked program and the warnings its checks gave. */
export interface CheckedRules {
  program: RuleProgram;
  warnings: Diagnostic[];
}

/**
 * The plain form: a JSON value with sources as `{"$s": i}`, locations `{"$l": [i, start, end]}`,
 * bigints `{"$b": "12"}`, Maps `{"$m": [[k, v], ...]}`, shared objects `{"$d": id, "v": ...}` /
 * `{"$r": id}`, a clause of a part `{"$c": [part, index]}`; and its parts. Most clauses are
 * stored as a StoredEntry (their tree in a part, decoded when first read, and their summary).
 */
export interface PlainRules {
  format: string;
  /** Source paths, in the program's source order. */
  paths: string[];
  /**
   * The encoded `{ relations, strata, warnings, edges, clauses, facts }` (relations and edges
   * mostly as `flatRelations` and `flatEdges`: see compiled-clauses.ts; edges: the program's
   * dependency edges, not computed again; facts: `[part, first clause id]` of each run of facts,
   * in clause order; clauses: the other clauses, most as references into the parts).
   */
  body: unknown;
  /**
   * The syntax trees of the rules, one part per source file (a PlainPart), and the runs of facts
   * (compiled-facts.ts's PlainFacts, the op catalog's two thousand in one), each a JSON text. A
   * part depends only on its file (not on the program's numbering of relations, clauses or
   * sources), so the programs that include one library and op catalog store the same texts, and
   * a caller that reads several decodes each once (PartMemo).
   */
  parts: string[];
}

/**
 * One part of clauses: the paths stored of the sources its locations index (its own first), and
 * its clauses as generic values; `at[i]` is where clause i starts in the text after
 * `"clauses":[` (`at[i + 1] - 1` where it ends), so that one clause is parsed alone.
 */
interface PlainPart {
  paths: string[];
  at: number[];
  clauses: unknown[];
}

/** A part decoded: the paths its text stores, the sources it was decoded with, its clauses or its facts. */
interface DecodedPart {
  paths: string[];
  sources: SourceText[];
  clauses?: PartClauses;
  facts?: FactRun;
}

/** Parts decoded before, by their text. */
export type PartMemo = Map<string, DecodedPart>;

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
  // A packed fact (check/fact-table.ts), a clause read from compiled rules or projected, is read as the clause it makes.
  const clauses: ProgramClause[] = program.clauses.map((pc) =>
    Object.getPrototypeOf(pc) !== Object.prototype || 'summary' in pc
      ? { id: pc.id, clause: pc.clause, head: pc.head, varKinds: pc.varKinds }
      : pc,
  );
  const root = { relations: program.relations, strata: program.strata, warnings, edges: program.edges, clauses };

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
  // (`at` gives the index of a source in the table of the value encoded: the program's or a part's.)
  // (In a part, `bare`: a location under a key `loc` or `nameLoc` is its array alone, `[source, start, end]`.)
  const encodeIn = (at: (s: SourceText) => number, bare = false) => {
    const encode = (v: unknown): unknown => {
      if (typeof v === 'bigint') return { $b: v.toString() };
      if (typeof v !== 'object' || v === null) {
        if (typeof v === 'function' || typeof v === 'symbol') throw new Error(`cannot store a ${typeof v} in compiled rules`);
        return v;
      }
      if (v instanceof SourceText) return { $s: at(v) };
      if (isLocation(v)) return { $l: [at(v.source), v.start, v.end] };
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
        for (const [k, x] of Object.entries(v)) {
          if (x === undefined) continue;
          const loc = bare && (k === 'loc' || k === 'nameLoc') && typeof x === 'object' && x !== null && isLocation(x);
          o[k] = loc ? [at(x.source), x.start, x.end] : encode(x);
        }
        out = o;
      }
      return own >= 0 ? { $d: own, v: out } : out;
    };
    return encode;
  };
  const encode = encodeIn(sourceIndex);
  // Facts (the op catalog: most clauses) in a flat form (compiled-facts.ts), the other clauses
  // as generic values; encoded (and so decoded) in this key order: shared objects are defined first.
  // Rules (and facts not packed) into their source's part where they fit its packed form.
  const { runs, packed } = packFacts(
    clauses,
    program.relations,
    (s) => {
      sourceIndex(s);
      return pathOf(s.path);
    },
    shared,
  );
  const parts: { paths: string[]; index: Map<string, number>; clauses: string[] }[] = [];
  const partOf = new Map<string, number>();
  const relId = (name: string): number | undefined => program.byName.get(name)?.id;
  const rest = clauses
    .filter((pc) => !packed.has(pc))
    .map((pc): ProgramClause | StoredEntry => {
      // (A clause whose objects are reached from elsewhere keeps their identity in the body.)
      if (Object.getPrototypeOf(pc) !== Object.prototype || shared.has(pc) || reachesAny(pc.clause, shared)) return pc;
      const home = pc.clause.loc.source.path;
      let k = partOf.get(home);
      if (k === undefined) partOf.set(home, (k = parts.push({ paths: [], index: new Map(), clauses: [] }) - 1));
      const part = parts[k]!;
      const local = (s: SourceText): number => {
        let i = part.index.get(s.path);
        if (i === undefined) {
          sourceIndex(s);
          part.index.set(s.path, (i = part.paths.push(pathOf(s.path)) - 1));
        }
        return i;
      };
      const at = part.clauses.push(asciiJson(encodeIn(local, true)(pc.clause))) - 1;
      if (shared.has(pc.varKinds)) return { ...pc, clause: { $c: [k, at] } as unknown as Clause };
      // (Most clauses: their tree read only when something reads the clause, their summary at hand.)
      const s = summarize(pc.clause, relId);
      return [
        pc.id,
        pc.head,
        [k, at],
        [...pc.varKinds],
        [s.fact ? 1 : 0, s.bodyLength, s.positive, s.reads, sourceIndex(s.source), s.headStrings],
      ];
    });
  const body = {
    ...flatRelations(root.relations, shared, sourceIndex, encode),
    strata: encode(root.strata),
    warnings: encode(root.warnings),
    ...flatEdges(root.edges, shared, sourceIndex, encode),
    clauses: rest.map((x) => (Array.isArray(x) ? x : encode(x))),
    facts: runs.map((r, i) => [parts.length + i, r.base]),
  };
  return {
    format: COMPILED_FORMAT,
    paths,
    body,
    parts: [...parts.map((p) => clausePart(p.paths, p.clauses)), ...runs.map((r) => asciiJson(r.facts satisfies PlainFacts))],
  };
}

/** Whether `v` reaches an object of `set` (locations and sources aside: they are stored by value). */
function reachesAny(v: unknown, set: ReadonlySet<object>): boolean {
  if (typeof v !== 'object' || v === null || v instanceof SourceText || isLocation(v)) return false;
  if (set.has(v)) return true;
  if (v instanceof Map) {
    for (const [k, x] of v) if (reachesAny(k, set) || reachesAny(x, set)) return true;
    return false;
  }
  return (Array.isArray(v) ? v : Object.values(v)).some((x) => reachesAny(x, set));
}

export { asciiJson, BadCompiledRules };

/**
 * The program a plain form describes (made of `plain`'s own arrays and objects: the caller gives
 * it up, as JSON.parse returned it); `sourceOf(path)` gives the source text of each stored path
 * (the caller has read and verified it). The facts stay packed (RuleProgram's FactTable), each
 * one's clause made when first read; `facts`, when given, holds fact clauses made before (by
 * source, then start offset): a fact equal to one there is that clause, not a copy (the programs
 * of one caller share their op catalog's thousands); `shared`, the program's store of
 * memos it shares with the caller's other programs (RuleProgram); `parts`, the parts decoded
 * before (a part of the same text and source is not decoded again: its clauses are shared), to
 * which it adds those it decodes (the caller vouches for their texts). Throws BadCompiledRules
 * on a malformed form.
 */
export function fromPlain(
  plain: PlainRules,
  sourceOf: (storedPath: string) => SourceText,
  facts?: WeakMap<SourceText, Map<number, Clause>>,
  shared?: SharedMemos,
  parts?: PartMemo,
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
  const sourceAt = (p: unknown): SourceText => {
    if (typeof p !== 'string') throw new BadCompiledRules('a source path is not a string');
    let s = byPath.get(p);
    if (!s) byPath.set(p, (s = sourceOf(p)));
    return s;
  };
  // Part k, decoded on the first reference to it.
  const decoded: DecodedPart[] = [];
  const partAt = (k: unknown): DecodedPart => {
    if (typeof k !== 'number') throw new BadCompiledRules('a bad part');
    const done = decoded[k];
    if (done) return done;
    const text = plain.parts?.[k];
    if (typeof text !== 'string') throw new BadCompiledRules('a reference to a missing part');
    const known = parts?.get(text);
    // (The same text in another program: the same part when its paths are the same sources here.)
    if (known?.paths.every((p, i) => sourceAt(p) === known.sources[i])) {
      decoded[k] = known;
      return known;
    }
    // A part of clauses: its paths and offsets parsed now, each clause when first read.
    const cut = text.indexOf(CLAUSES_KEY);
    const part = JSON.parse(cut < 0 ? text : `${text.slice(0, cut)}}`) as Partial<PlainPart> | null;
    if (part === null || typeof part !== 'object' || !Array.isArray(part.paths)) throw new BadCompiledRules('a bad part');
    const paths = part.paths as string[];
    const partSources = paths.map(sourceAt);
    let d: DecodedPart;
    if (cut >= 0) {
      const base = cut + CLAUSES_KEY.length;
      const at = part.at;
      if (
        !Array.isArray(at) ||
        at.length < 2 ||
        at[0] !== 0 ||
        !at.every((x, i) => Number.isInteger(x) && (i === 0 || x > at[i - 1]!)) ||
        base + at[at.length - 1]! - 1 !== text.length - 2 ||
        !text.endsWith(']}')
      )
        throw new BadCompiledRules('a bad part');
      d = { paths, sources: partSources, clauses: new PartClauses(text, base, at, decoder(partSources, noPart, true)) };
    } else if (partSources.length === 1) {
      try {
        d = { paths, sources: partSources, facts: unpackFacts(part, partSources[0]!) };
      } catch (e) {
        throw e instanceof BadFacts ? new BadCompiledRules(e.message) : e;
      }
    } else throw new BadCompiledRules('a bad part');
    parts?.set(text, d);
    decoded[k] = d;
    return d;
  };
  const clausesOf = (k: unknown): PartClauses => partAt(k).clauses ?? noPart();
  const decode = decoder(sources, clausesOf);
  const body = plain.body as Partial<
    Record<'relations' | 'flatRelations' | 'strata' | 'warnings' | 'edges' | 'flatEdges' | 'clauses' | 'facts', unknown>
  > | null;
  if (body === null || typeof body !== 'object') throw new BadCompiledRules('the program is incomplete');
  // (In the order toPlain encoded them: a shared object is defined before it is referred to.)
  const relations = Array.isArray(body.flatRelations)
    ? relationsOf(body.flatRelations, sources)
    : (decode(body.relations) as RuleProgram['relations']);
  const strata = decode(body.strata) as RuleProgram['strata'];
  const warnings = decode(body.warnings) as Diagnostic[];
  const edges = Array.isArray(body.flatEdges)
    ? edgesOf(body.flatEdges, relations.length, sources)
    : (decode(body.edges) as RuleProgram['edges']);
  if (![relations, strata, warnings, edges, body.clauses].every(Array.isArray)) throw new BadCompiledRules('the program is incomplete');
  if (!relations.every((r, i) => r !== null && typeof r === 'object' && r.id === i && typeof r.name === 'string' && Array.isArray(r.kinds)))
    throw new BadCompiledRules('a bad relation');
  const rest = (body.clauses as unknown[]).map((e) =>
    Array.isArray(e) ? storedClause(e, relations.length, sources, clausesOf) : (decode(e) as ProgramClause),
  );
  if (!Array.isArray(body.facts)) throw new BadCompiledRules('the program is incomplete');
  const runs = body.facts.map((ref: unknown) => {
    const r = Array.isArray(ref) ? partAt(ref[0]) : undefined;
    const source = r?.facts ? sources.indexOf(r.sources[0]!) : -1;
    if (source < 0) throw new BadCompiledRules('a bad run of facts');
    return { run: r!.facts!, base: (ref as unknown[])[1] as number, source };
  });
  let table: FactTable;
  try {
    table = new FactTable(
      joinFacts(runs, relations),
      sources,
      relations.map((r) => r.name),
      facts,
    );
  } catch (e) {
    throw e instanceof BadFacts ? new BadCompiledRules(e.message) : e;
  }
  // Every clause in its place (by id), each place taken once: the packed facts', then the others'.
  const clauses: ProgramClause[] = new Array(table.clauses.length + rest.length);
  for (const pc of table.clauses) {
    if (pc.id >= clauses.length) throw new BadCompiledRules('a clause out of place');
    clauses[pc.id] = pc;
  }
  let someFact = false;
  for (const pc of rest) {
    const id = (pc as Partial<ProgramClause> | null)?.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= clauses.length || clauses[id] !== undefined)
      throw new BadCompiledRules('a clause out of place');
    clauses[id] = pc;
    someFact ||= (pc.summary ? pc.summary.fact : pc.clause?.isFact) === true;
  }
  const program = new RuleProgram(relations, clauses, strata, sources, edges, shared, someFact ? undefined : table);
  return { program, warnings };
}

/**
 * The decoder of stored values whose sources are `sources` (`{"$s": i}` and locations index it),
 * clause references `{"$c": [part, i]}` resolved by `partAt`; `bare` (a part's clauses): an
 * array under a key `loc` or `nameLoc` is a location. It decodes in place: the parsed
 * JSON's arrays and plain objects become the program's (no copy of each).
 */
function decoder(sources: readonly SourceText[], partAt: (k: unknown) => PartClauses, bare = false): (v: unknown) => unknown {
  const defs = new Map<number, unknown>();
  // A stored value other than a plain object or array: `{"$x": ...}`, its key first (see toPlain).
  const special = (k: string, o: Record<string, unknown>): unknown => {
    switch (k) {
      case '$s': {
        const s = sources[o.$s as number];
        if (!s) throw new BadCompiledRules('a source index is out of range');
        return s;
      }
      case '$b':
        if (typeof o.$b !== 'string' || !/^-?\d+$/.test(o.$b)) throw new BadCompiledRules('a bad number');
        return BigInt(o.$b);
      case '$r':
        if (!defs.has(o.$r as number)) throw new BadCompiledRules('a reference to an undefined object');
        return defs.get(o.$r as number);
      case '$d': {
        // Shared objects are trees (no cycles): decode, then register for later references.
        const x = decode(o.v);
        defs.set(o.$d as number, x);
        return x;
      }
      case '$c': {
        const at = o.$c as unknown[];
        const part = Array.isArray(at) ? partAt(at[0]) : undefined;
        const i = at?.[1];
        if (!part || !Number.isInteger(i) || (i as number) < 0 || (i as number) >= part.count)
          throw new BadCompiledRules('a reference to a missing clause');
        return part.clauseAt(i as number);
      }
      case '$m':
        if (!Array.isArray(o.$m)) throw new BadCompiledRules('a bad map');
        return new Map(o.$m.map((e) => (Array.isArray(e) && e.length === 2 ? [decode(e[0]), decode(e[1])] : badEntry())));
    }
    throw new BadCompiledRules(`an unknown stored value ${k}`);
  };
  // (Cheap tests first: this runs over tens of thousands of objects before the JIT has warmed up.)
  const decode = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    // (Only objects are visited and written back: most values are strings and numbers.)
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i] as unknown;
        if (typeof x === 'object' && x !== null) v[i] = decode(x);
      }
      return v;
    }
    const o = v as Record<string, unknown>;
    const l = o.$l as unknown[] | undefined;
    if (l !== undefined) return location(l);
    let first = true;
    for (const k in o) {
      if (first && k.charCodeAt(0) === 36) return special(k, o);
      first = false;
      const x = o[k];
      if (typeof x === 'object' && x !== null)
        o[k] = bare && Array.isArray(x) && (k === 'loc' || k === 'nameLoc') ? location(x) : decode(x);
    }
    return o;
  };
  const location = (l: unknown): Location => {
    const a = Array.isArray(l) ? (l as unknown[]) : [];
    const source = sources[a[0] as number];
    if (!source || typeof a[1] !== 'number' || typeof a[2] !== 'number') throw new BadCompiledRules('a bad location');
    return { source, start: a[1], end: a[2] };
  };
  return decode;
}

/** A reference to clauses where there are none (from a part, or to a part of facts). */
function noPart(): never {
  throw new BadCompiledRules('a reference to clauses that are not there');
}

function badEntry(): never {
  throw new BadCompiledRules('a bad map entry');
}
