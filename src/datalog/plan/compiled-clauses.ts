// The rules of a compiled entry as stored (compiled.ts): each rule's tree in a part, parsed alone
// and decoded when first read; each rule's summary and variables' kinds in the program's line;
// the dependency edges and the relations in flat arrays. What a small audit reads of every rule is
// at hand without decoding any tree.
import type { Location } from '../../report/diagnostic.js';
import { SourceText } from '../../report/source.js';
import type { ClauseSummary } from '../check/clause-summary.js';
import type { ProgramClause, RelationInfo } from '../check/program.js';
import type { DepEdge } from '../check/stratify.js';
import type { Clause, Kind } from '../syntax/ast.js';

/**
 * The JSON text of `v` in ASCII (every other character escaped, `\u00b7`): read back from a file,
 * a text of one-byte characters, decoded and parsed faster and held in half the memory.
 */
export function asciiJson(v: unknown): string {
  return JSON.stringify(v).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** What comes just before a part's clauses (the last key of a PlainPart: `paths` and `at` are read alone). */
export const CLAUSES_KEY = ',"clauses":[';

/**
 * A clause of the body stored with its tree in a part: `[id, head, [part, index], varKinds as
 * [name, kind] pairs, summary]`, the summary `[isFact 0/1, body length, positive atoms'
 * relations, reads as [relation, columns, counted], head's source (index in paths), head's
 * string constants]` (see ClauseSummary).
 */
export type StoredEntry = [
  number,
  number,
  [number, number],
  [string, Kind][],
  [number, number, number[], [number, number[], boolean][], number, (string | null)[]],
];

/** The clauses of a part, each decoded from its own slice of the part's text when first read. */
export class PartClauses {
  private readonly made: (Clause | undefined)[];

  constructor(
    private readonly text: string,
    /** Where the clauses' array starts in `text` (after `[`). */
    private readonly base: number,
    private readonly at: readonly number[],
    private readonly decode: (v: unknown) => unknown,
  ) {
    this.made = new Array(at.length - 1);
  }

  /** How many clauses the part holds. */
  get count(): number {
    return this.at.length - 1;
  }

  /** Clause `i` (0 <= i < count), the same object on every read. */
  clauseAt(i: number): Clause {
    let c = this.made[i];
    if (!c) {
      const v = this.decode(JSON.parse(this.text.slice(this.base + this.at[i]!, this.base + this.at[i + 1]! - 1)));
      if (v === null || typeof v !== 'object' || !('head' in v)) throw new BadCompiledRules('a bad clause');
      this.made[i] = c = v as Clause;
    }
    return c;
  }
}

/** A clause read from compiled rules: its tree decoded when first read, its summary and variables' kinds at hand. */
class StoredClause implements ProgramClause {
  private kinds: Map<string, Kind> | undefined;

  constructor(
    readonly id: number,
    readonly head: number,
    readonly summary: ClauseSummary,
    private readonly part: PartClauses,
    private readonly index: number,
    private readonly kindList: readonly [string, Kind][],
  ) {}

  /** The clause's tree, the same object on every read. */
  get clause(): Clause {
    return this.part.clauseAt(this.index);
  }

  /** The kind of every variable of the clause. */
  get varKinds(): Map<string, Kind> {
    this.kinds ??= new Map(this.kindList);
    return this.kinds;
  }
}

/** The keys of a relation stored flat (see flatRelations), and no other. */
const RELATION_KEYS = 'id,name,attrs,types,kinds,loc,input,output,printsize';

/**
 * `{ flatRelations }`: each relation as `[name, attrs, types, kinds ("n"/"s" each), source, start,
 * end, input + 2 output + 4 printsize]` (its id is its place), or `{ relations }` encoded as other
 * values when a relation is shared, has another key, or is not of that form.
 */
export function flatRelations(
  relations: readonly RelationInfo[],
  shared: ReadonlySet<object>,
  sourceIndex: (s: SourceText) => number,
  encode: (v: unknown) => unknown,
): { flatRelations: unknown[] } | { relations: unknown } {
  const flat: unknown[] = [];
  for (const [i, r] of relations.entries()) {
    const plain =
      r.id === i &&
      Object.keys(r).join(',') === RELATION_KEYS &&
      isLocation(r.loc) &&
      [r, r.attrs, r.types, r.kinds].every((x) => !shared.has(x)) &&
      [r.attrs, r.types].every((a) => a.every((x) => typeof x === 'string')) &&
      r.kinds.every((k) => k === 'number' || k === 'symbol');
    if (!plain) return { relations: encode(relations) };
    const flags = (r.input ? 1 : 0) + (r.output ? 2 : 0) + (r.printsize ? 4 : 0);
    flat.push([r.name, r.attrs, r.types, r.kinds.map((k) => k[0]).join(''), sourceIndex(r.loc.source), r.loc.start, r.loc.end, flags]);
  }
  return { flatRelations: flat };
}

/** The relations of a flat list (see flatRelations), each checked. */
export function relationsOf(flat: unknown[], sources: readonly SourceText[]): RelationInfo[] {
  return flat.map((x, id): RelationInfo => {
    const r = (Array.isArray(x) ? x : []) as unknown[];
    const name = r[0];
    const attrs = r[1];
    const types = r[2];
    const kinds = r[3];
    const source = r[4];
    const start = r[5];
    const end = r[6];
    const flags = r[7];
    if (
      typeof name !== 'string' ||
      !Array.isArray(attrs) ||
      !Array.isArray(types) ||
      typeof kinds !== 'string' ||
      !/^[ns]*$/.test(kinds) ||
      attrs.length !== kinds.length ||
      types.length !== kinds.length ||
      !isIndex(source, sources.length) ||
      typeof start !== 'number' ||
      typeof end !== 'number' ||
      !isIndex(flags, 8)
    )
      throw new BadCompiledRules('a bad relation');
    return {
      id,
      name,
      attrs: attrs as string[],
      types: types as string[],
      kinds: [...kinds].map((k) => (k === 'n' ? 'number' : 'symbol')),
      loc: { source: sources[source]!, start, end },
      input: (flags & 1) !== 0,
      output: (flags & 2) !== 0,
      printsize: (flags & 4) !== 0,
    };
  });
}

/** How a dependency edge reads its relation, by its number in a flat list of edges. */
const HOWS: readonly DepEdge['how'][] = ['pos', 'neg', 'count', 'min', 'max', 'sum'];

/**
 * `{ flatEdges }`: the edges as numbers, `[from, to, how (HOWS), source, start, end]` each (most
 * of a program's line is edges: parsed as numbers, not objects), or `{ edges }` encoded as other
 * values when an edge is shared or not of that form.
 */
export function flatEdges(
  edges: readonly DepEdge[],
  shared: ReadonlySet<object>,
  sourceIndex: (s: SourceText) => number,
  encode: (v: unknown) => unknown,
): { flatEdges: number[] } | { edges: unknown } {
  const flat: number[] = [];
  for (const e of edges) {
    const how = HOWS.indexOf(e.how);
    if (shared.has(e) || how < 0 || !isLocation(e.loc) || Object.keys(e).length !== 4) return { edges: encode(edges) };
    flat.push(e.from, e.to, how, sourceIndex(e.loc.source), e.loc.start, e.loc.end);
  }
  return { flatEdges: flat };
}

/** The text of a PlainPart of `paths` and clauses of texts `pieces` (ASCII JSON each). */
export function clausePart(paths: string[], pieces: readonly string[]): string {
  const at = [0];
  for (const p of pieces) at.push(at[at.length - 1]! + p.length + 1);
  return `{"paths":${asciiJson(paths)},"at":${JSON.stringify(at)}${CLAUSES_KEY}${pieces.join(',')}]}`;
}

/** A Location (`{ source, start, end }` and nothing else): stored as `{"$l": [source, start, end]}`. */
export function isLocation(v: object): v is Location {
  if (!('source' in v) || !(v.source instanceof SourceText)) return false;
  let n = 0;
  for (const k in v) if (++n > 3 || (k !== 'source' && k !== 'start' && k !== 'end')) return false;
  return n === 3;
}

/** Thrown by fromPlain on anything that is not a well-formed plain form of this version. */
export class BadCompiledRules extends Error {}

/** The edges of a flat list (see flatEdges), each index checked. */
export function edgesOf(flat: unknown[], relationCount: number, sources: readonly SourceText[]): DepEdge[] {
  if (flat.length % 6 !== 0) throw new BadCompiledRules('a bad edge');
  const out: DepEdge[] = [];
  for (let i = 0; i < flat.length; i += 6) {
    // (Read by index, not destructured: in code V8 has not optimised yet, destructuring allocates.)
    const from = flat[i];
    const to = flat[i + 1];
    const how = flat[i + 2];
    const source = flat[i + 3];
    const start = flat[i + 4];
    const end = flat[i + 5];
    if (
      !isIndex(from, relationCount) ||
      !isIndex(to, relationCount) ||
      !isIndex(how, HOWS.length) ||
      !isIndex(source, sources.length) ||
      typeof start !== 'number' ||
      typeof end !== 'number'
    )
      throw new BadCompiledRules('a bad edge');
    out.push({ from, to, how: HOWS[how]!, loc: { source: sources[source]!, start, end } });
  }
  return out;
}

/** Whether `x` is an integer in [0, n). */
function isIndex(x: unknown, n: number): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < n;
}

/** The clause of a StoredEntry (checked: every index in range); `clausesOf(k)`, part k's clauses. */
export function storedClause(
  e: unknown[],
  relationCount: number,
  sources: readonly SourceText[],
  clausesOf: (k: unknown) => PartClauses,
): StoredClause {
  // (Read by index, not destructured: this runs over every rule before V8 optimises it.)
  const stored = e as Partial<StoredEntry>;
  const id = stored[0];
  const head = stored[1];
  const ref = stored[2];
  const kinds = stored[3];
  const s = stored[4];
  if (typeof id !== 'number' || !isIndex(head, relationCount) || !Array.isArray(ref) || !Array.isArray(kinds) || !Array.isArray(s))
    throw new BadCompiledRules('a bad clause');
  const part = clausesOf(ref[0]);
  const fact = s[0];
  const bodyLength = s[1];
  const positive = s[2];
  const reads = s[3];
  const source = s[4];
  const headStrings = s[5];
  // (Loops, not closures: this runs over every rule of every program read, before V8 optimises it.)
  let ok = isIndex(ref[1], part.count) && (fact === 0 || fact === 1) && Number.isInteger(bodyLength) && isIndex(source, sources.length);
  ok &&= Array.isArray(positive) && Array.isArray(reads) && Array.isArray(headStrings);
  for (let i = 0; ok && i < kinds.length; i++) {
    const k = kinds[i];
    ok = Array.isArray(k) && typeof k[0] === 'string' && (k[1] === 'number' || k[1] === 'symbol');
  }
  for (let i = 0; ok && i < positive.length; i++) ok = isIndex(positive[i], relationCount);
  for (let i = 0; ok && i < reads.length; i++) {
    const r = reads[i] as unknown[] | undefined;
    ok = Array.isArray(r) && isIndex(r[0], relationCount) && Array.isArray(r[1]) && typeof r[2] === 'boolean';
    const cols = r?.[1] as unknown[];
    for (let j = 0; ok && j < cols.length; j++) ok = Number.isInteger(cols[j]);
  }
  for (let i = 0; ok && i < headStrings.length; i++) ok = headStrings[i] === null || typeof headStrings[i] === 'string';
  if (!ok) throw new BadCompiledRules('a bad clause');
  const summary: ClauseSummary = {
    fact: fact === 1,
    bodyLength,
    positive,
    reads,
    source: sources[source]!,
    headStrings,
  };
  return new StoredClause(id, head, summary, part, ref[1], kinds);
}
