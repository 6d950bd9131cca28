// The facts of a compiled program (compiled.ts) in their stored form: one flat array of numbers
// and a table of strings, read back into a FactTable (check/fact-table.ts) with every index and
// offset checked, and no syntax tree made per fact.
import type { SourceText } from '../../report/source.js';
import type { PackedFacts } from '../check/fact-table.js';
import type { ProgramClause, RelationInfo } from '../check/program.js';

/**
 * The stored facts: `count` facts with `args` arguments in all; `strings`; and `rows` with per fact
 * `id, head, source, start, end, headStart, headEnd, nameStart, nameEnd`, then per argument (as
 * many as its relation has columns) `value, start, end`: in a symbol column the value is the index
 * of the string in `strings`, in a number column the number. Every offset but a clause's start is
 * counted from that start.
 */
export interface PlainFacts {
  count: number;
  args: number;
  strings: string[];
  rows: number[];
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Whether `o` has exactly `n` own keys (nothing the stored form would drop). */
function exactKeys(o: object, n: number): boolean {
  let k = 0;
  for (const _ in o) k++;
  return k === n;
}

/**
 * The stored form of the facts of `clauses` that it can hold, with the set of those clauses:
 * facts whose arguments are strings and numbers within ±(2^53 - 1), located in one source, of
 * exactly the shape the parser makes, none of their objects reached from elsewhere (`shared`).
 */
export function packFacts(
  clauses: readonly ProgramClause[],
  relations: readonly RelationInfo[],
  sourceIndex: (s: SourceText) => number,
  shared: ReadonlySet<object>,
): { facts: PlainFacts; packed: Set<ProgramClause> } {
  const strings: string[] = [];
  const stringIds = new Map<string, number>();
  const rows: number[] = [];
  const packed = new Set<ProgramClause>();
  let args = 0;
  for (const pc of clauses) {
    const row = rowOf(pc);
    if (!row) continue;
    packed.add(pc);
    args += pc.clause.head.args.length;
    for (const x of row) rows.push(x);
  }
  return { facts: { count: packed.size, args, strings, rows }, packed };

  function rowOf(pc: ProgramClause): number[] | undefined {
    const c = pc.clause;
    const h = c.head;
    if (!c.isFact || c.body.length > 0 || pc.varKinds.size > 0 || !exactKeys(c, 4) || !exactKeys(h, 4)) return undefined;
    if (relations[pc.head]?.name !== h.rel || [c, h, h.args, c.loc, h.loc, h.nameLoc].some((x) => shared.has(x))) return undefined;
    const src = c.loc.source;
    if (h.loc.source !== src || h.nameLoc.source !== src || !exactKeys(c.loc, 3) || !exactKeys(h.loc, 3) || !exactKeys(h.nameLoc, 3))
      return undefined;
    const at = c.loc.start;
    const kinds = relations[pc.head]!.kinds;
    const row = [pc.id, pc.head, sourceIndex(src), at, c.loc.end - at, h.loc.start - at, h.loc.end - at, h.nameLoc.start - at];
    row.push(h.nameLoc.end - at);
    for (const [i, a] of h.args.entries()) {
      if ((a.kind !== 'str' && a.kind !== 'num') || !exactKeys(a, 3) || !exactKeys(a.loc, 3)) return undefined;
      if (a.loc.source !== src || shared.has(a) || shared.has(a.loc) || (a.kind === 'str') !== (kinds[i] === 'symbol')) return undefined;
      if (a.kind === 'num' && (a.value < -MAX_SAFE || a.value > MAX_SAFE)) return undefined;
      let v: number;
      if (a.kind === 'num') v = Number(a.value);
      else {
        const known = stringIds.get(a.value);
        v = known ?? strings.push(a.value) - 1;
        if (known === undefined) stringIds.set(a.value, v);
      }
      row.push(v, a.loc.start - at, a.loc.end - at);
    }
    return row;
  }
}

/** Thrown by unpackFacts on stored facts that are not well formed (compiled.ts turns it into BadCompiledRules). */
export class BadFacts extends Error {}

/**
 * The PackedFacts of stored facts, checked: ids increasing from 0 up, each relation of
 * `relations` (its columns say which arguments are strings), each source of `sources` and each
 * location within its text, each string index in range, each number within ±(2^53 - 1). Throws
 * BadFacts otherwise. (One pass of plain comparisons: it runs before the JIT has warmed up.)
 */
export function unpackFacts(plain: unknown, sources: readonly SourceText[], relations: readonly RelationInfo[]): PackedFacts {
  const p = plain as Partial<PlainFacts> | null;
  if (p === null || typeof p !== 'object' || !Array.isArray(p.strings) || !Array.isArray(p.rows)) throw new BadFacts('no facts');
  const { count, args, strings, rows } = p as PlainFacts;
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(args) || count < 0 || args < 0 || count * 9 + args * 3 !== rows.length)
    throw new BadFacts('a bad count of facts');
  for (const s of strings) if (typeof s !== 'string') throw new BadFacts('a string that is not one');
  const out: PackedFacts = {
    strings,
    clauseIds: new Int32Array(count),
    heads: new Int32Array(count),
    sources: new Int32Array(count),
    locs: new Int32Array(6 * count),
    starts: new Int32Array(count + 1),
    values: new Float64Array(args),
    isString: new Uint8Array(args),
    argLocs: new Int32Array(2 * args),
  };
  const { clauseIds, heads, locs, starts, values, isString, argLocs } = out;
  const symbol = relations.map((r) => r.kinds.map((k) => (k === 'symbol' ? 1 : 0)));
  const nStrings = strings.length;
  let r = 0;
  let a = 0;
  let last = -1;
  for (let f = 0; f < count; f++) {
    const id = rows[r]!;
    const head = rows[r + 1]!;
    const s = rows[r + 2]!;
    const at = rows[r + 3]!;
    if (
      (id | 0) !== id ||
      id <= last ||
      (head | 0) !== head ||
      head < 0 ||
      head >= symbol.length ||
      (s | 0) !== s ||
      s < 0 ||
      s >= sources.length
    )
      throw new BadFacts('a bad fact');
    const size = sources[s]!.text.length;
    if ((at | 0) !== at || at < 0 || at > size) throw new BadFacts('a bad fact location');
    last = id;
    clauseIds[f] = id;
    heads[f] = head;
    out.sources[f] = s;
    locs[6 * f] = at;
    for (let k = 1; k < 6; k++) {
      const x = rows[r + 3 + k]!;
      if ((x | 0) !== x || x < -at || x > size - at) throw new BadFacts('a bad fact location');
      locs[6 * f + k] = at + x;
    }
    r += 9;
    if (locs[6 * f + 1]! < at || locs[6 * f + 3]! < locs[6 * f + 2]! || locs[6 * f + 5]! < locs[6 * f + 4]!)
      throw new BadFacts('a bad fact location');
    const cols = symbol[head]!;
    starts[f] = a;
    if (a + cols.length > args) throw new BadFacts('a bad count of arguments');
    for (let j = 0; j < cols.length; j++, a++, r += 3) {
      const v = rows[r]!;
      const str = cols[j]!;
      if (str === 1 ? (v | 0) !== v || v < 0 || v >= nStrings : typeof v !== 'number' || !Number.isSafeInteger(v))
        throw new BadFacts('a bad fact argument');
      isString[a] = str;
      values[a] = v + 0; // (never -0)
      const from = rows[r + 1]!;
      const to = rows[r + 2]!;
      if ((from | 0) !== from || (to | 0) !== to || from < -at || to > size - at || to < from)
        throw new BadFacts('a bad argument location');
      argLocs[2 * a] = at + from;
      argLocs[2 * a + 1] = at + to;
    }
  }
  if (a !== args) throw new BadFacts('a bad count of arguments');
  starts[count] = a;
  return out;
}
