// What the ids of fact extraction stand for: IR nodes, and the entities that are not IR nodes
// (bindings, blocks, parameters, a function's exit, a node only located). The id tables
// (node-table.ts, kept-places.ts) hold them.
import type { Expr, FunctionDef, Param, Program, Stmt, TypeExpr } from '../ir/nodes.js';

/** A variable binding: one definition of a name. */
export interface Binding {
  kind: 'Binding';
  name: string;
  bindingKind: BindingKind;
  /** The node that defines it (parameter or statement); undefined in a table that does not keep it (NodeTable `keep`). */
  site: FunctionDef | Stmt | ParamEntity | undefined;
  /** The span of the defining name. */
  start: number;
  end: number;
  /** The declared type, when annotated. */
  type: TypeExpr | null;
  /** Its function; undefined in a table that does not keep it (NodeTable `keep`). */
  func: FunctionDef | undefined;
}

export type BindingKind = 'param' | 'assign' | 'loop_var' | 'iter_arg' | 'yield' | 'as';

/** A parameter as an entity of the id table. */
export interface ParamEntity {
  kind: 'Param';
  param: Param;
  start: number;
  end: number;
}

/** The role of a statement list in its owner. */
export type BlockRole = 'body' | 'then' | 'else';

/** A statement list of a function or compound statement. */
export interface BlockEntity {
  kind: 'Block';
  owner: FunctionDef | Stmt;
  role: BlockRole;
  /** The owner's own statement array (a rewrite that splices it changes the owner). */
  stmts: Stmt[];
  /** The id of `stmts[0]`: the block's statements (as extracted) have the ids first, first + 1, ... */
  first: number;
}

/** What an id stands for. */
export type Entity =
  | Expr
  | TypeExpr
  | Stmt
  | FunctionDef
  | Program
  | ParamEntity
  | Binding
  | BlockEntity
  | { kind: 'Exit'; func: FunctionDef }
  | Located;

/**
 * Where a node is, and its kind (`of`), without the node: what a table that keeps some nodes
 * (NodeTable `keep`) holds for an id whose node is only located (a finding's, an edit's anchor).
 */
export interface Located {
  kind: 'Located';
  of: Exclude<Entity, Located>['kind'];
  start: number;
  end: number;
}

/**
 * What a table that keeps some nodes keeps of an id: nothing, where it is (Located), where a
 * Submit's or scope's deps list is (a copy without its arguments and deps: what replace_deps
 * reads), or its node.
 */
export type Keep = 'none' | 'span' | 'deps' | 'node';
