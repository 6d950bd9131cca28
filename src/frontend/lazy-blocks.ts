/**
 * Statements parsed when fact extraction reaches them (ParseOptions.streaming), so that a large
 * module's tree never exists whole: a block of many statement groups is given its first and
 * last chunk of statements parsed, and one placeholder per chunk in between (the array has its
 * real length). `ensure` parses a placeholder's chunk into the array in place; extraction then
 * drops each statement once its facts are out (ExtractOptions.consume).
 *
 *   body of 10,000 groups  →  [s0 … s1023, P1 ×1024, P2 ×1024, …, P8 ×1024, s9216 … s9999]
 *   ensure(body, 1024)      →  [s0 … s1023, s1024 … s2047, P2 ×1024, …]
 *
 * A streaming parse never reports an error of its own: any error in a chunk, or a chunk whose
 * statement count is not its group count, abandons it (StreamAbandoned), and the caller reads
 * the module whole instead, which reports exactly what a whole parse reports.
 */
import type { PendingStatements, Stmt } from '../ir/nodes.js';
import { DiagnosticError } from '../report/diagnostic.js';
import { firstAtOrAfter } from './sorted.js';

/** When a block is read lazily (ParseOptions.streaming). */
export interface LazySizes {
  /** A block of at least this many statement groups is read lazily (default 4,096). */
  minGroups?: number;
  /** Statement groups parsed together when extraction reaches them (default 1,024). */
  chunkGroups?: number;
}

/**
 * Thrown (never a DiagnosticError, so that no isolation catches it) when a streaming parse meets
 * something only a whole parse reports exactly: read the module whole.
 */
export class StreamAbandoned extends Error {
  constructor(why: string) {
    super(`streaming parse abandoned: ${why}`);
  }
}

/** One chunk not yet parsed: `count` statement groups, parsed by `parse`. */
interface Chunk {
  count: number;
  parse: () => Stmt[];
}

/** The placeholders of one streaming parse and what parses them. */
export class LazyBlocks implements PendingStatements {
  private readonly chunks = new WeakMap<Stmt, Chunk>();
  /** Sorted offsets of the text where a block cannot be read lazily (`;`, `func_attr`). */
  private readonly blockers: Int32Array;

  /** A block of fewer statement groups is parsed whole. */
  readonly minGroups: number;
  /** Statement groups per chunk. */
  readonly chunkGroups: number;

  constructor(
    text: string,
    sizes: LazySizes,
    /** Called with each chunk's statements once parsed (notes the whole parse would give about them). */
    private readonly onChunk: (stmts: readonly Stmt[]) => void,
  ) {
    this.blockers = blockerOffsets(text);
    this.chunkGroups = Math.max(1, sizes.chunkGroups ?? 1_024);
    this.minGroups = Math.max(3 * this.chunkGroups, sizes.minGroups ?? 4_096);
  }

  /** Whether a block of `groups` statement groups spanning text [from, to) is read lazily. */
  wants(groups: number, from: number, to: number): boolean {
    if (groups < this.minGroups) return false;
    // One group is one statement, except `a; b` (a count known only by parsing); a `pl.func_attr`
    // outside a function's prologue is an error only a whole body shows.
    const next = this.blockers[firstAtOrAfter(this.blockers, from)];
    return next === undefined || next >= to;
  }

  /** A placeholder for `count` statement groups, parsed by `parse` when extraction reaches them. */
  placeholder(count: number, parse: () => Stmt[], start: number, end: number): Stmt {
    const p: Stmt = { kind: 'Pass', start, end };
    this.chunks.set(p, { count, parse });
    return p;
  }

  ensure(stmts: Stmt[], i: number): void {
    const p = stmts[i]!;
    const chunk = this.chunks.get(p);
    if (chunk === undefined) return;
    let from = i;
    while (from > 0 && stmts[from - 1] === p) from--;
    const parsed = checkedChunk(chunk.count, chunk.parse);
    for (let k = 0; k < parsed.length; k++) stmts[from + k] = parsed[k]!;
    this.onChunk(parsed);
  }
}

/**
 * `parse()`'s statements, which must be `count`: a located error in them (DiagnosticError) or
 * another count abandons the stream; any other exception is a ptolog bug and is thrown as it is.
 */
export function checkedChunk(count: number, parse: () => Stmt[]): Stmt[] {
  let got: Stmt[];
  try {
    got = parse();
  } catch (e) {
    if (e instanceof DiagnosticError) throw new StreamAbandoned(e.diagnostics[0]?.message ?? 'an error');
    throw e;
  }
  if (got.length !== count) throw new StreamAbandoned(`${count} statement groups gave ${got.length} statements`);
  return got;
}

/** Offsets of every `;` and `func_attr` of `text`, ascending. */
function blockerOffsets(text: string): Int32Array {
  const out: number[] = [];
  for (let i = text.indexOf(';'); i >= 0; i = text.indexOf(';', i + 1)) out.push(i);
  for (let i = text.indexOf('func_attr'); i >= 0; i = text.indexOf('func_attr', i + 1)) out.push(i);
  return Int32Array.from(out).sort();
}
