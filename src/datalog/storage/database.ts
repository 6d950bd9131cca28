// A database of input facts for one program: tuples are interned and stored as integer rows.
// Tuples streamed in are appended to a row buffer per relation (an array of the run's arena); each
// relation is built from that array when first read: no copy, no rehashing as it grows, no dedup
// set, the spare capacity given back to the arena.
import { type Diagnostic, DiagnosticError } from '../../report/diagnostic.js';
import type { Value } from '../syntax/ast.js';
import { INT64_MAX, INT64_MIN, isInt64 } from '../syntax/int64.js';
import { Arena } from './arena.js';
import { Relation } from './relation.js';
import { RowBuffer } from './row-buffer.js';
import type { RelationSchema, Schema } from './schema.js';
import { SymbolTable } from './symbols.js';

function fail(message: string, fix: string): never {
  const d: Diagnostic = { severity: 'error', code: 'bad-fact', message, fix };
  throw new DiagnosticError([d]);
}

/** Input tuples of a program, keyed by relation; symbols interned into a shared table. */
export class FactDatabase {
  readonly symbols = new SymbolTable();
  private readonly stored: (Relation | undefined)[];
  /** Rows inserted into a relation not built yet, in order (duplicates removed when it is built). */
  private readonly pending: (RowBuffer | undefined)[];
  private scratch = new Float64Array(16);
  /** True once an evaluation freed some of its relations (see EvaluateOptions.keep). */
  private gaveUp = false;

  /**
   * `arena`: where the relations' large arrays come from, here and in the evaluations of this
   * database (default: one of its own, reserving as it goes).
   */
  constructor(
    readonly program: Schema,
    readonly arena: Arena = new Arena(),
  ) {
    this.stored = program.relations.map(() => undefined);
    this.pending = program.relations.map(() => undefined);
  }

  /** The storage of every relation by id (undefined: nothing inserted); builds the buffered ones. */
  get relations(): readonly (Relation | undefined)[] {
    for (let id = 0; id < this.pending.length; id++) if (this.pending[id]) this.build(id);
    return this.stored;
  }

  /** Builds relation `id` from its buffered rows (their array becomes the relation's), cut to their size. */
  private build(id: number): Relation {
    const buf = this.pending[id]!;
    this.pending[id] = undefined;
    const n = buf.count;
    const r = Relation.fromRows(buf.arity, n, buf.take(), this.arena);
    // Complete until more facts are inserted: its dedup set is rebuilt only if a lookup needs it.
    r.pool = this.arena;
    r.compact();
    r.pool = null;
    // No join runs while facts are loaded: the spare blocks cut off can be reused at once.
    this.arena.recycle();
    this.stored[id] = r;
    return r;
  }

  /** Forgets relation `id`'s facts: an evaluation that keeps only some relations frees the others. */
  release(id: number): void {
    this.pending[id] = undefined;
    this.stored[id] = undefined;
    this.gaveUp = true;
  }

  /** Throws when an evaluation freed relations of this database (it cannot be evaluated again). */
  checkComplete(): void {
    if (this.gaveUp)
      throw new Error('this fact database gave up relations to an evaluation that kept only some: build a new one to evaluate again');
  }

  /** The declared relation `name`; throws a diagnostic when it is not declared. */
  info(name: string): RelationSchema {
    const r = this.program.relation(name);
    if (!r) fail(`the relation ${name} is not declared by the rule program`, 'insert facts only into relations declared with `.decl`.');
    return r;
  }

  /** The storage of relation `id`, created on first use. */
  storage(id: number): Relation {
    if (this.pending[id]) return this.build(id);
    let r = this.stored[id];
    if (!r) {
      r = new Relation(this.program.relations[id]!.kinds.length);
      this.stored[id] = r;
    }
    return r;
  }

  /**
   * Adds one tuple to relation `rel`; values are strings for symbol columns, signed 64-bit
   * integers (a number, or a bigint) for number columns.
   */
  insert(rel: string, values: readonly Value[]): void {
    const info = this.info(rel);
    this.insertInto(info, values);
  }

  /** Adds many tuples to relation `rel`. */
  insertMany(rel: string, rows: Iterable<readonly Value[]>): void {
    const info = this.info(rel);
    for (const row of rows) this.insertInto(info, row);
  }

  /** Adds one tuple to a relation given by its info (values checked against the declaration). */
  insertInto(info: RelationSchema, values: readonly Value[]): void {
    // A projected relation (plan/projection.ts) is given every declared column and stores those read.
    const p = info.projection;
    const kinds = p ? p.kinds : info.kinds;
    const attrs = p ? p.attrs : info.attrs;
    const types = p ? p.types : info.types;
    if (values.length !== kinds.length) {
      fail(
        `${info.name} has ${kinds.length} column${kinds.length === 1 ? '' : 's'} but the tuple (${values.map(String).join(', ')}) has ${values.length}`,
        `give one value per column of ${info.name}(${attrs.map((a, i) => `${a}: ${types[i]}`).join(', ')}).`,
      );
    }
    if (this.scratch.length < kinds.length) this.scratch = new Float64Array(kinds.length);
    const t = this.scratch;
    for (let i = 0, j = 0; i < kinds.length; i++) {
      const v = values[i]!;
      const stored = !p || p.columns[j] === i;
      if (kinds[i] === 'symbol') {
        if (typeof v !== 'string')
          fail(`column ${i + 1} (${attrs[i]}) of ${info.name} is a symbol but got the number ${v}`, 'pass a string for symbol columns.');
        if (stored) t[j++] = this.symbols.intern(v);
      } else {
        if (!isInt64(v)) {
          fail(
            `column ${i + 1} (${attrs[i]}) of ${info.name} is a number but got ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`,
            `pass a signed 64-bit integer (between ${INT64_MIN} and ${INT64_MAX}) for number columns.`,
          );
        }
        if (stored) t[j++] = this.symbols.numbers.encode(v);
      }
    }
    const arity = info.kinds.length; // the stored columns
    const built = this.stored[info.id];
    if (built || arity === 0) {
      this.storage(info.id).add(t, 0);
      return;
    }
    let buf = this.pending[info.id];
    if (!buf) this.pending[info.id] = buf = new RowBuffer(arity, this.arena);
    buf.push(t);
  }

  /**
   * Adds one tuple already encoded (symbol ids of this database's table, int64.ts encodings),
   * its first `info.kinds.length` values: the fact files' reader, which checked them.
   */
  insertEncoded(info: RelationSchema, row: Float64Array): void {
    const p = info.projection;
    let t = row;
    if (p) {
      // A projected relation (plan/projection.ts): `row` has every declared column; the ones read are stored.
      if (this.scratch.length < p.kinds.length) this.scratch = new Float64Array(p.kinds.length);
      t = this.scratch;
      for (let j = 0; j < p.columns.length; j++) t[j] = row[p.columns[j]!]!;
    }
    const built = this.stored[info.id];
    if (built || info.kinds.length === 0) {
      this.storage(info.id).add(t, 0);
      return;
    }
    let buf = this.pending[info.id];
    if (!buf) this.pending[info.id] = buf = new RowBuffer(info.kinds.length, this.arena);
    buf.push(t);
  }

  /** Number of distinct tuples inserted into relation `rel`. */
  size(rel: string): number {
    const id = this.info(rel).id;
    if (this.pending[id]) this.build(id);
    return this.stored[id]?.count ?? 0;
  }
}
