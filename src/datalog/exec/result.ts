// The result of an evaluation: decoded relation access and provenance queries.
import { DiagnosticError } from '../../report/diagnostic.js';
import type { RelationInfo, RuleProgram } from '../check/program.js';
import { explainTuple, type FactRowClauses, type Proof, type WhyNot, whyNotTuple } from '../provenance/provenance.js';
import type { Arena } from '../storage/arena.js';
import { type PackedRows, packedRows, type SymbolOrder, sortedRowOrder, symbolOrder } from '../storage/order.js';
import type { Relation } from '../storage/relation.js';
import type { SymbolTable } from '../storage/symbols.js';
import type { Kind, Value } from '../syntax/ast.js';
import { isInt64 } from '../syntax/int64.js';

/** Orders tuples column by column: numbers numerically, symbols by code units. */
export function compareTuples(a: readonly Value[], b: readonly Value[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    // Numbers (number or bigint, compared exactly) and strings; a column holds one kind.
    return x < y ? -1 : 1;
  }
  return 0;
}

/** Relations computed by `evaluate`, with provenance. */
export class EvalResult {
  /** The text order of the symbols (`symbolOrder`), computed on first use (again when symbols were added since). */
  private ranks: SymbolOrder | null = null;

  constructor(
    readonly program: RuleProgram,
    /** Storage per relation id (read-only for callers). */
    readonly storage: readonly Relation[],
    readonly symbols: SymbolTable,
    /** Rows that come from facts written in the rule files, and their clauses. */
    readonly factRows: FactRowClauses,
    /** Number of leading rows of each relation that are input facts from the database. */
    readonly inputCounts: readonly number[],
    /** Relations freed after evaluation (EvaluateOptions.keep): reading one throws. */
    readonly released: ReadonlySet<number> = new Set(),
    /** The evaluation's arena: scratch arrays of sorting and writing come from it (pages already written). */
    readonly arena: Arena | null = null,
  ) {}

  /**
   * Moves every relation's rows into arrays of their own (see Relation.detach): afterwards the
   * arena of the evaluation can be reset or trimmed while this result is read.
   */
  detach(): void {
    for (const r of this.storage) r.detach();
  }

  /**
   * Forgets the text of every symbol that no row of the result holds (SymbolTable.retain): an
   * evaluation that kept a few relations (EvaluateOptions.keep) holds a few of the facts'
   * symbols, and the rest (a million-statement program's names: 1.9M strings) need not stay
   * while the result is read.
   */
  retainSymbols(): void {
    const kept = new Uint8Array(this.symbols.size);
    this.program.relations.forEach((info, id) => {
      const rel = this.storage[id]!;
      const a = rel.arity;
      const d = rel.data;
      info.kinds.forEach((k, c) => {
        if (k === 'symbol') for (let p = c; p < rel.count * a; p += a) kept[d[p]!] = 1;
      });
    });
    this.symbols.retain(kept);
    this.ranks = null;
  }

  /** True when the program declares relation `rel`. */
  has(rel: string): boolean {
    return this.program.byName.has(rel);
  }

  /** The declared relation `rel`; throws a diagnostic when it is not declared. */
  info(rel: string): RelationInfo {
    const r = this.program.relation(rel);
    if (!r)
      throw new DiagnosticError([
        { severity: 'error', code: 'undeclared-relation', message: `the relation ${rel} is not declared`, fix: 'check the relation name.' },
      ]);
    // A caller error, not the user's: the evaluation was asked to keep other relations only.
    if (this.released.has(r.id)) throw new Error(`the relation ${rel} was freed after evaluation (not in EvaluateOptions.keep)`);
    return r;
  }

  /** Number of tuples of `rel`. */
  size(rel: string): number {
    return this.storage[this.info(rel).id]!.count;
  }

  /** The decoded value of column kind `k`. */
  decode(k: Kind, v: number): Value {
    return k === 'symbol' ? this.symbols.text(v) : this.symbols.numbers.decode(v);
  }

  /** The decoded tuple at `row` of relation `id`. */
  rowValues(id: number, row: number): Value[] {
    const rel = this.storage[id]!;
    const kinds = this.program.relations[id]!.kinds;
    const out: Value[] = [];
    for (let c = 0; c < rel.arity; c++) out.push(this.decode(kinds[c]!, rel.data[row * rel.arity + c]!));
    return out;
  }

  /** Row numbers of relation `id` in the deterministic output order (column by column). */
  sortedRows(id: number): Int32Array {
    const kinds = this.program.relations[id]!.kinds;
    const rel = this.storage[id]!;
    // Fewer than two rows have one order: no text order of every symbol (a large run's millions
    // of symbols, sorted at its peak, for an empty relation read right after evaluation).
    const ordered = rel.count > 1 && kinds.includes('symbol');
    return sortedRowOrder(rel, kinds, this.symbols, ordered ? this.symbolOrder() : undefined);
  }

  /** The rows of relation `id` as sorted keys (see PackedRows), or null when they do not fit one key. */
  packedRows(id: number): PackedRows | null {
    const kinds = this.program.relations[id]!.kinds;
    return packedRows(this.storage[id]!, kinds, kinds.includes('symbol') ? this.symbolOrder() : null, this.arena);
  }

  /** Gives the arrays of a `packedRows` answer back to the arena (not read after). */
  releasePacked(p: PackedRows): void {
    if (p.keys) this.arena?.release(p.keys);
    if (p.bits) this.arena?.release(p.bits);
  }

  /** The text order of the symbols. */
  symbolOrder(): SymbolOrder {
    if (!this.ranks || this.ranks.rank.length !== this.symbols.size) this.ranks = symbolOrder(this.symbols);
    return this.ranks;
  }

  /** Every tuple of `rel`, decoded and sorted deterministically. */
  tuples(rel: string): Value[][] {
    const info = this.info(rel);
    const out: Value[][] = [];
    for (const row of this.sortedRows(info.id)) out.push(this.rowValues(info.id, row));
    return out;
  }

  /**
   * Calls `f` with every tuple of `rel`, decoded, in the order of `tuples`, without building them
   * all: `f` gets one array reused for every tuple (copy what it keeps).
   */
  forEachTuple(rel: string, f: (tuple: readonly Value[]) => void): void {
    const info = this.info(rel);
    const r = this.storage[info.id]!;
    const kinds = info.kinds;
    const a = r.arity;
    const t: Value[] = new Array<Value>(a).fill(0);
    for (const row of this.sortedRows(info.id)) {
      const d = r.data;
      for (let c = 0; c < a; c++) t[c] = this.decode(kinds[c]!, d[row * a + c]!);
      f(t);
    }
  }

  /** Encodes a tuple of `rel`; null when a symbol was never seen (so the tuple cannot be present). */
  encode(info: RelationInfo, tuple: readonly Value[]): Float64Array | null {
    if (tuple.length !== info.kinds.length) {
      throw new DiagnosticError([
        {
          severity: 'error',
          code: 'arity-mismatch',
          message: `${info.name} has ${info.kinds.length} columns but the tuple has ${tuple.length}`,
          fix: `give one value per column of ${info.name}.`,
        },
      ]);
    }
    const t = new Float64Array(Math.max(1, tuple.length));
    for (let i = 0; i < tuple.length; i++) {
      const v = tuple[i]!;
      const k = info.kinds[i]!;
      if (k === 'symbol') {
        if (typeof v !== 'string')
          throw new DiagnosticError([
            {
              severity: 'error',
              code: 'type-mismatch',
              message: `column ${i + 1} of ${info.name} is a symbol but got ${v}`,
              fix: 'quote symbols, e.g. "a".',
            },
          ]);
        const id = this.symbols.lookup(v);
        if (id < 0) return null;
        t[i] = id;
      } else {
        if (!isInt64(v))
          throw new DiagnosticError([
            {
              severity: 'error',
              code: 'type-mismatch',
              message: `column ${i + 1} of ${info.name} is a number but got ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`,
              fix: 'write a signed 64-bit integer.',
            },
          ]);
        const x = this.symbols.numbers.lookup(v);
        if (x === null) return null;
        t[i] = x;
      }
    }
    return t;
  }

  /** Row of a tuple in `rel`, or -1. */
  findRow(rel: string, tuple: readonly Value[]): number {
    const info = this.info(rel);
    const t = this.encode(info, tuple);
    return t ? this.storage[info.id]!.find(t) : -1;
  }

  /** True when `tuple` is in `rel`. */
  contains(rel: string, tuple: readonly Value[]): boolean {
    return this.findRow(rel, tuple) >= 0;
  }

  /** A proof tree of minimal height for a derived or input tuple, or null when it is absent. */
  explain(rel: string, tuple: readonly Value[]): Proof | null {
    const row = this.findRow(rel, tuple);
    return row < 0 ? null : explainTuple(this, this.info(rel).id, row);
  }

  /** For an absent tuple: per rule that could derive it, the first body literal that fails (a null column: any value). */
  whyNot(rel: string, tuple: readonly (Value | null)[]): WhyNot[] {
    const info = this.info(rel);
    this.encode(
      info,
      tuple.map((v, i) => v ?? (info.kinds[i] === 'symbol' ? '' : 0)),
    );
    return whyNotTuple(this, info, tuple);
  }
}
