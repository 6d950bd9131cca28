/**
 * The id table of fact extraction: what each fact id stands for. A million-statement module
 * has tens of millions of ids, so the table is lean: entities sit in fixed-size chunks (no
 * single array to grow and copy), and bindings and blocks, which are not IR nodes, are rows of
 * typed columns made into `Binding` / `BlockEntity` objects only when asked for.
 */

import { empty } from '../ir/compact.js';
import type { FunctionDef, Stmt, TypeExpr } from '../ir/nodes.js';
import type { Binding, BindingKind, BlockEntity, BlockRole, Entity, Keep, Located } from './entities.js';
import { KeptPlaces } from './kept-places.js';

export type { Binding, BindingKind, BlockEntity, BlockRole, Entity, Keep, Located, ParamEntity } from './entities.js';

/** What a reserved id holds until registerAt gives it its entity. */
const RESERVED: Entity = Object.freeze({ kind: 'Located', of: 'Pass', start: 0, end: 0 });

const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const BINDING_KINDS: readonly BindingKind[] = ['param', 'assign', 'loop_var', 'iter_arg', 'yield', 'as'];
const BLOCK_ROLES: readonly BlockRole[] = ['body', 'then', 'else'];
/** Int32 columns per binding row: site id, function id, start, end, kind. */
const B_STRIDE = 5;
/** Int32 columns per block row: owner id, role. */
const K_STRIDE = 2;

/** What extraction numbers ids with: a NodeTable (ids mapped back to nodes) or an IdCount (ids only counted). */
export interface IdRegistry {
  /** How many ids there are (ids run from 1 to `size`). */
  readonly size: number;
  register(entity: Entity): number;
  registerBinding(
    name: string,
    kind: BindingKind,
    siteId: number,
    funcId: number,
    start: number,
    end: number,
    type: TypeExpr | null,
  ): number;
  registerBlock(ownerId: number, role: BlockRole, stmts: Stmt[]): number;
  registerStmt(id: number, block: number): void;
  /** Sets aside the next `n` ids, each given its entity later by registerAt (in any order). */
  reserve(n: number): void;
  /** Gives the reserved id `id` its entity (as register would have). */
  registerAt(id: number, entity: Entity): void;
}

/**
 * Ids numbered as a NodeTable numbers them, with nothing remembered: facts extracted with it
 * hold no reference to the module's tree, which can then be freed while the facts are evaluated.
 */
export class IdCount implements IdRegistry {
  private count = 0;

  /** How many ids there are. */
  get size(): number {
    return this.count;
  }

  /** A fresh id for `entity` (not kept). */
  register(_entity: Entity): number {
    return ++this.count;
  }

  /** Sets aside the next `n` ids. */
  reserve(n: number): void {
    this.count += n;
  }

  /** Nothing is kept. */
  registerAt(_id: number, _entity: Entity): void {}

  /** A fresh id for a binding (not kept). */
  registerBinding(): number {
    return ++this.count;
  }

  /** A fresh id for a block (not kept); its statements get the ids after it. */
  registerBlock(): number {
    return ++this.count;
  }

  /** Nothing to remember. */
  registerStmt(): void {}
}

/**
 * `e` without the statements it holds (a function's or compound statement's body, a program's
 * functions): what a table that keeps a few nodes remembers, so that it keeps no tree alive.
 */
function withoutBody(e: Entity): Entity {
  switch (e.kind) {
    case 'Function':
      return { ...e, body: [] };
    case 'Program':
      return { ...e, functions: [] };
    case 'If':
      return { ...e, then: [], orelse: [] };
    case 'While':
    case 'For':
    case 'Scope':
      return { ...e, body: [] };
    case 'Exit':
      return { kind: 'Exit', func: { ...e.func, body: [] } };
    default:
      return e;
  }
}

/**
 * What replace_deps reads of a Submit or a scope: its kind, its span and its deps list's, and
 * whether it has one (deps non-null), in a copy without arguments, keywords, deps or body; of any
 * other entity, where it is.
 *
 *   x, t = pl.submit(self.k, x, deps=[a, b])  →  { kind: 'Submit', func: 'k', args: [], kwargs: [], deps: [], depsStart, depsEnd, start, end }
 */
function depsShell(e: Entity): Entity {
  if (e.kind === 'Submit') return { ...e, args: empty(), kwargs: empty(), deps: e.deps === null ? null : empty() };
  if (e.kind === 'Scope') {
    const asName = e.asName === null ? null : { ...e.asName }; // (a copy: nothing of the tree's pages is kept)
    return { ...e, args: empty(), kwargs: empty(), deps: e.deps === null ? null : empty(), asName, body: empty() };
  }
  return located(e);
}

/** Where `e` is (an exit: its function's end). */
function located(e: Entity): Located {
  if (e.kind === 'Located') return e;
  if (e.kind === 'Exit') return { kind: 'Located', of: 'Exit', start: e.func.end, end: e.func.end };
  if (e.kind === 'Block') return { kind: 'Located', of: 'Block', start: -1, end: -1 }; // (no block is kept)
  return { kind: 'Located', of: e.kind, start: e.start, end: e.end };
}

/**
 * A deep copy of the plain objects and arrays of `x` (strings, numbers and other objects, such
 * as a program's constants map, are shared): a kept node that holds nothing of the tree's pages.
 */
function copyTree<T>(x: T): T {
  if (x === null || typeof x !== 'object') return x;
  if (Array.isArray(x)) return x.map((v: unknown) => copyTree(v)) as T;
  if (Object.getPrototypeOf(x) !== Object.prototype) return x;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x)) out[k] = copyTree(v);
  return out as T;
}

/** Id ↔ node maps produced by extraction. */
export class NodeTable implements IdRegistry {
  /**
   * Without `keep`, every id's node. With it, for the ids it says `node` of, the node (or
   * binding), a copy without the statements it holds (see withoutBody); for those it says
   * `deps` of, a deps shell (see depsShell); for those it says `span` of, a Located; nothing else
   * and no block: `get` of another id is undefined and `blockOfStmt` always is. Such a table
   * locates and rewrites those nodes while the tree is freed.
   */
  constructor(keep?: (id: number) => Keep) {
    this.keep = keep ?? null;
    this.keeping = keep !== undefined;
  }

  /** What to keep of each id (null: every node, or after doneKeeping). */
  private keep: ((id: number) => Keep) | null;
  /** True when the table keeps some nodes only (constructed with `keep`). */
  private readonly keeping: boolean;

  /**
   * After extraction, in a table that keeps some nodes: lets go of `keep` (and of what it holds,
   * such as the set of ids it was made from) and of the kept rows' spare room. Nothing may be
   * registered afterwards.
   */
  doneKeeping(): void {
    this.keep = () => {
      throw new Error('an id was registered after doneKeeping');
    };
    this.places.trim();
  }

  /** With `keep`: the kept ids' nodes and scope shells (nothing is stored per id otherwise). */
  private readonly kept = new Map<number, Entity>();
  /** With `keep`: the kept places and Submit deps shells, as rows. */
  private readonly places = new KeptPlaces();

  /** With `keep`: a fresh id, with `make`'s entity or `at`'s place kept as `keep` says (a binding's). */
  private keepOne(make: () => Entity, at: () => Located): number {
    const id = ++this.count;
    this.keepAt(id, make, at);
    return id;
  }

  /** With `keep`: of `entity`, a copy (without its statements), a deps shell or where it is, kept for `id` as `keep` says. */
  private keepEntity(id: number, entity: Entity): void {
    // A copy: the tree's pages hold no kept node, so they are given back whole once it is freed.
    this.keepAt(
      id,
      () => copyTree(withoutBody(entity)),
      () => located(entity),
      () => depsShell(entity),
    );
  }

  /** With `keep`: `make`'s entity, `shell`'s (`deps`) or `at`'s place kept for `id` as `keep` says. */
  private keepAt(id: number, make: () => Entity, at: () => Located, shell: () => Entity = at): void {
    const k = this.keep!(id);
    if (k === 'node') this.kept.set(id, make());
    else if (k === 'deps' || k === 'span') {
      const e = k === 'deps' ? shell() : at();
      if (e.kind === 'Located') this.places.addPlace(id, e.of, e.start, e.end);
      else if (e.kind === 'Submit') this.places.addSubmit(id, e);
      else this.kept.set(id, e);
    }
  }

  /**
   * Entity of id i + 1 at chunks[i >> 16][i & 0xffff]. A number there is a row: k ≥ 0 the k-th
   * binding, -1 - k the k-th block.
   */
  private readonly chunks: (Entity | number)[][] = [];
  private count = 0;
  /** For each statement id, the id of the block it is in (0 for other ids): typed, so a million-statement module's table is not a holey array of every id. */
  private blockOf = new Int32Array(1024);
  private readonly bindingNames: string[] = [];
  private bindingRows = new Int32Array(64 * B_STRIDE);
  /** Declared types of the bindings that have one (by binding row). */
  private readonly bindingTypes = new Map<number, TypeExpr>();
  private readonly blockStmts: Stmt[][] = [];
  private blockRows = new Int32Array(64 * K_STRIDE);

  /** How many ids there are (ids run from 1 to `size`). */
  get size(): number {
    return this.count;
  }

  private push(e: Entity | number): number {
    const i = this.count++;
    if ((i & (CHUNK - 1)) === 0) this.chunks.push(new Array<Entity | number>(CHUNK));
    this.chunks[i >>> CHUNK_BITS]![i & (CHUNK - 1)] = e;
    return this.count;
  }

  /** Gives `entity` a fresh id (ids start at 1; 0 means "none" in facts). */
  register(entity: Entity): number {
    if (this.keeping) {
      const id = ++this.count;
      this.keepEntity(id, entity);
      return id;
    }
    return this.push(entity);
  }

  /** Sets aside the next `n` ids (each given its entity by registerAt). */
  reserve(n: number): void {
    if (this.keeping) {
      this.count += n;
      return;
    }
    for (let k = 0; k < n; k++) this.push(RESERVED);
  }

  /** Gives the reserved id `id` its entity (as register would have). */
  registerAt(id: number, entity: Entity): void {
    if (this.keeping) {
      this.keepEntity(id, entity);
      return;
    }
    const i = id - 1;
    this.chunks[i >>> CHUNK_BITS]![i & (CHUNK - 1)] = entity;
  }

  /** Gives a fresh id to the binding of `name` defined at the entity `siteId` in the function `funcId`, its name at [start, end). */
  registerBinding(
    name: string,
    kind: BindingKind,
    siteId: number,
    funcId: number,
    start: number,
    end: number,
    type: TypeExpr | null,
  ): number {
    if (this.keeping) {
      return this.keepOne(
        () => ({
          kind: 'Binding',
          name,
          bindingKind: kind,
          start,
          end,
          site: this.kept.get(siteId) as Binding['site'] | undefined,
          type: type === null ? null : copyTree(type),
          func: this.kept.get(funcId) as FunctionDef | undefined,
        }),
        () => ({ kind: 'Located', of: 'Binding', start, end }),
      );
    }
    const k = this.bindingNames.length;
    this.bindingNames.push(name);
    if ((k + 1) * B_STRIDE > this.bindingRows.length) this.bindingRows = grown(this.bindingRows);
    const r = this.bindingRows;
    const o = k * B_STRIDE;
    r[o] = siteId;
    r[o + 1] = funcId;
    r[o + 2] = start;
    r[o + 3] = end;
    r[o + 4] = BINDING_KINDS.indexOf(kind);
    if (type !== null) this.bindingTypes.set(k, type);
    return this.push(k);
  }

  /** Gives a fresh id to the block `stmts` (the `role` list of the entity `ownerId`); its statements get the ids after it. */
  registerBlock(ownerId: number, role: BlockRole, stmts: Stmt[]): number {
    if (this.keeping) return ++this.count; // (no block is kept)
    const k = this.blockStmts.length;
    this.blockStmts.push(stmts);
    if ((k + 1) * K_STRIDE > this.blockRows.length) this.blockRows = grown(this.blockRows);
    this.blockRows[k * K_STRIDE] = ownerId;
    this.blockRows[k * K_STRIDE + 1] = BLOCK_ROLES.indexOf(role);
    return this.push(-1 - k);
  }

  /** Remembers the block of statement `id` (a statement's own id is its block's `first` + its index). */
  registerStmt(id: number, block: number): void {
    if (this.keeping) return;
    if (id >= this.blockOf.length) {
      const bigger = new Int32Array(Math.max(id + 1, this.blockOf.length * 2));
      bigger.set(this.blockOf);
      this.blockOf = bigger;
    }
    this.blockOf[id] = block;
  }

  /** The id of the block holding statement `id`, or undefined when `id` is not a statement. */
  blockOfStmt(id: number): number | undefined {
    const b = id >= 0 && id < this.blockOf.length ? this.blockOf[id]! : 0;
    return b === 0 ? undefined : b;
  }

  /** The entity with this id (a binding or block: a fresh object each time). */
  get(id: number): Entity | undefined {
    if (!(id >= 1 && id <= this.count)) return undefined;
    if (this.keeping) return this.kept.get(id) ?? this.places.get(id);
    const i = id - 1;
    const e = this.chunks[i >>> CHUNK_BITS]![i & (CHUNK - 1)]!;
    if (typeof e !== 'number') return e;
    return e >= 0 ? this.binding(e) : this.block(-1 - e, id);
  }

  private binding(k: number): Binding {
    const r = this.bindingRows;
    const o = k * B_STRIDE;
    return {
      kind: 'Binding',
      name: this.bindingNames[k]!,
      bindingKind: BINDING_KINDS[r[o + 4]!]!,
      site: this.get(r[o]!) as Binding['site'] | undefined,
      start: r[o + 2]!,
      end: r[o + 3]!,
      type: this.bindingTypes.get(k) ?? null,
      func: this.get(r[o + 1]!) as FunctionDef | undefined,
    };
  }

  private block(k: number, id: number): BlockEntity {
    return {
      kind: 'Block',
      owner: this.get(this.blockRows[k * K_STRIDE]!) as FunctionDef | Stmt,
      role: BLOCK_ROLES[this.blockRows[k * K_STRIDE + 1]!]!,
      stmts: this.blockStmts[k]!,
      first: id + 1,
    };
  }
}

/** `a` in an array twice as long (the rest zero). */
function grown(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
