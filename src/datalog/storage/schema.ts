// What storage knows of a rule program: its relations' names, columns and kinds. The checked
// program's RelationInfo (check/program.ts) extends RelationSchema, so storage never imports it.
import type { Kind } from '../syntax/ast.js';

/** How a stored relation's columns come from the declared ones: `columns[i]` is the declared column of stored column i. */
export interface Projection {
  columns: number[];
  /** The declaration's attribute names, type names and kinds (all columns). */
  attrs: string[];
  types: string[];
  kinds: Kind[];
}

/** One relation as storage sees it: its id, name and (stored) columns. */
export interface RelationSchema {
  id: number;
  name: string;
  /** Attribute names and declared type names, one per column. */
  attrs: string[];
  types: string[];
  kinds: Kind[];
  input: boolean;
  /**
   * Set when the relation stores only the columns its rules read (plan/projection.ts): `attrs`,
   * `types` and `kinds` are those columns'; facts are still inserted with every declared column.
   */
  projection?: Projection;
}

/** The relations of a program, by id and by name. */
export interface Schema {
  readonly relations: readonly RelationSchema[];
  /** The relation named `name`, or undefined. */
  relation(name: string): RelationSchema | undefined;
}
