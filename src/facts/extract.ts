/**
 * Fact extraction: IR → the relations declared in rules/schema.dl. Facts describe the program
 * (structure, names, types, calls, control flow), never a contract. Every node and binding
 * gets a number id; the returned `NodeTable` maps ids back to IR nodes for the rewriter and
 * the reporters.
 */

import type { Module } from '../ir/nodes.js';
import { Consumer, statementCount } from './consume.js';
import { Extractor } from './extractor.js';
import { IdCount, type IdRegistry, type Keep, NodeTable } from './node-table.js';
import type { FactSink } from './sink.js';

export {
  type Binding,
  type BindingKind,
  type BlockEntity,
  type BlockRole,
  type Entity,
  type Keep,
  type Located,
  NodeTable,
  type ParamEntity,
} from './node-table.js';

/** How extraction treats the module and what its table keeps. */
export interface ExtractOptions {
  /** What the table keeps of each id (NodeTable `keep`); default every id's node. */
  keep?: (id: number) => Keep;
  /**
   * The module is the caller's to consume: each statement is dropped from its block (replaced by
   * a shared `pass`) once its facts are out, and `collect` (a full garbage collection) is
   * called each time another eighth of the statements (of a streaming parse's module: those
   * parsed, a placeholder counting one), at least 65,536, has been dropped. The
   * tree then shrinks while the facts grow, instead of both being whole at the end. A statement
   * `v = pl.yield_(...)` is kept (its loop's facts read it after its body's).
   */
  consume?: { collect: () => void };
}

/**
 * Extracts the facts of every program in `module` into `sink`; returns the id table (see
 * ExtractOptions for a table of some nodes and a module consumed on the way).
 */
export function extractFacts(module: Module, sink: FactSink, opts: ExtractOptions = {}): NodeTable {
  const table = new NodeTable(opts.keep);
  extractInto(module, sink, table, opts.consume);
  return table;
}

/**
 * As extractFacts, remembering no node: returns how many ids the facts use. Nothing the facts
 * hold refers to the module, so its tree can be freed once this returns (or on the way, with
 * `consume`); extractFacts on the same module (parsed from the same text) numbers every node as
 * these facts do.
 */
export function extractFactsCounted(module: Module, sink: FactSink, consume?: ExtractOptions['consume']): number {
  const ids = new IdCount();
  extractInto(module, sink, ids, consume);
  return ids.size;
}

/** A sink that keeps nothing (extraction then only numbers the nodes). */
export const NO_FACTS: FactSink = { add: () => {}, wants: () => false };

function extractInto(module: Module, sink: FactSink, ids: IdRegistry, consume: ExtractOptions['consume']): void {
  const x = new Extractor(module, sink, ids, consume ? new Consumer(consume.collect, statementCount(module)) : null);
  sink.add('source_file', [module.source.path]);
  for (const p of module.programs) x.program(p);
  x.emitPreorder();
}

export { typeKind } from './type-kind.js';
