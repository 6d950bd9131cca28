/**
 * The frontend's op table: short and qualified spellings of the ops the frontend normalises, their canonical
 * names, their positional parameters (keywords naming one move into its position), and the
 * enum type of parameters that take one. The frontend normalises calls with it; the printer
 * prints canonical names and enum values with it. Ops it does not list keep the name they
 * were written with. What ptolog knows about ops is the catalog, rules/op_catalog.dl; this table
 * is checked against it (test/op-catalog.test.ts): every op here is in the catalog with an
 * effect (or explicitly inert) and its parameter names are the catalog's, in order.
 */

/** An enum the DSL exposes, e.g. `pld.NotifyOp` with `AtomicAdd = 0`. */
export interface EnumSpec {
  module: 'pl' | 'pld';
  /** Member name -> integer value (members whose value ptolog does not know map to -1). */
  members: Record<string, number>;
}

export const ENUMS: Record<string, EnumSpec> = {
  CachePolicy: { module: 'pl', members: { DEFAULT: 0, BYPASS: 1 } },
  NotifyOp: { module: 'pld', members: { AtomicAdd: 0, Set: 1 } },
  WaitCmp: { module: 'pld', members: { Eq: 0, Ne: 1, Gt: 2, Ge: 3, Lt: 4, Le: 5 } },
  FunctionType: {
    module: 'pl',
    members: {
      Opaque: 0, Orchestration: 1, InCore: 2, AIC: 3, AIV: 4, Group: 5, Spmd: 6, Inline: 7, Graph: 8,
    },
  },
  ScopeMode: { module: 'pl', members: { AUTO: 0, MANUAL: 1 } },
  Level: {
    module: 'pl',
    members: { CORE_GROUP: -1, CORE: -1, CLUSTER: -1, CHIP: -1, HOST: -1, GLOBAL: -1 },
  },
  MemorySpace: { module: 'pl', members: { DDR: -1, Vec: -1, Mat: -1, Left: -1, Right: -1, Acc: -1 } },
};

/** Data types written bare as `pl.FP32`; they become `Enum` nodes of enum `DataType`. */
export const DATA_TYPES: ReadonlySet<string> = new Set([
  'FP32', 'FP16', 'BF16', 'FP8', 'FP64', 'INT4', 'INT8', 'INT16', 'INT32', 'INT64',
  'UINT8', 'UINT16', 'UINT32', 'UINT64', 'BOOL', 'INDEX', 'TASK_ID',
]);

export interface OpParam {
  name: string;
  /** The enum this parameter takes; an integer argument is read as that enum's member. */
  enum?: string;
  /**
   * Keyword-only in PyPTO's signature (after `*`): kept in its position in the IR, printed as
   * `name=value`, and a positional argument there is an error (PyPTO's TypeError).
   */
  kwOnly?: boolean;
}

export interface OpSpec {
  /** Canonical name, e.g. `tile.store`, `pld.system.notify`. */
  canonical: string;
  /** How the canonical printer writes the callee, e.g. `pl.tile.store`. */
  printName: string;
  /** Every spelling that means this op (including `printName`). */
  spellings: string[];
  /** Positional parameters in order. */
  params: OpParam[];
  /** Keyword-only attributes that take an enum (e.g. `cache` on `tile.load`). */
  kwEnums?: Record<string, string>;
  /**
   * When false, keywords are never moved into positions (the op checks its own call form,
   * e.g. `pl.set_cache_policy` rejects the keyword form).
   */
  keywordsToPositions?: boolean;
}

const p = (...names: string[]): OpParam[] => names.map((name) => ({ name }));

function op(canonical: string, printName: string, extra: string[], params: OpParam[], more: Partial<OpSpec> = {}): OpSpec {
  return { canonical, printName, spellings: [printName, ...extra], params, ...more };
}

export const OPS: readonly OpSpec[] = [
  op('tile.load', 'pl.tile.load', ['pl.load'], p('tensor', 'offsets', 'shapes'), { kwEnums: { cache: 'CachePolicy' } }),
  op('tile.store', 'pl.tile.store', ['pl.store'], p('tile', 'offsets', 'output_tensor')),
  op('tensor.write', 'pl.tensor.write', [], p('tensor', 'indices', 'value')),
  op('tensor.read', 'pl.tensor.read', [], p('tensor', 'indices')),
  op('tensor.assemble', 'pl.tensor.assemble', [], p('target', 'source', 'offset')),
  // A slice write into a tile (`t[0:4, :] = x`) is tile.assemble (PyPTO lowers it by target type).
  op('tile.assemble', 'pl.tile.assemble', [], p('target', 'source', 'offset')),
  op('tensor.view', 'pl.tensor.view', [], p('tensor', 'shape', 'valid_shape')),
  op('tensor.matmul', 'pl.tensor.matmul', [], p('lhs', 'rhs')),
  op('tile.matmul', 'pl.tile.matmul', [], p('lhs', 'rhs')),
  // PyPTO's unified `pl.matmul`, `pl.read`, `pl.write`, `pl.assemble` pick the tensor or the
  // tile op by their operand's type (the rules resolve them, lib.dl's op_call): kept as
  // written, so fmt never turns a tile read into pl.tensor.read.
  op('matmul', 'pl.matmul', [], p('lhs', 'rhs')),
  op('read', 'pl.read', [], p('src', 'offset')),
  op('write', 'pl.write', [], p('dst', 'offset', 'value')),
  op('assemble', 'pl.assemble', [], p('target', 'source', 'offset')),
  op('tile.write', 'pl.tile.write', [], p('tile', 'indices', 'value')),
  op('tile.read', 'pl.tile.read', [], p('tile', 'indices')),
  op('pld.tile.get', 'pld.tile.get', [], p('dst', 'peer', 'src', 'stage')),
  op('pld.tensor.get', 'pld.tensor.get', [], p('dst', 'peer', 'src')),
  op('pld.tile.remote_store', 'pld.tile.remote_store', [], p('src_tile', 'target', 'peer', 'offsets')),
  op('pld.tile.remote_load', 'pld.tile.remote_load', [], p('target', 'peer', 'offsets', 'shape')),
  op('pld.tile.put', 'pld.tile.put', [], p('dst', 'peer', 'src', 'stage')),
  op('pld.tensor.put', 'pld.tensor.put', [], p('dst', 'peer', 'src')),
  op('pld.tensor.remote_store', 'pld.tensor.remote_store', [], p('src', 'target', 'peer', 'offsets')),
  op('pld.system.notify', 'pld.system.notify', [], [
    { name: 'target' }, { name: 'peer' }, { name: 'offsets' }, { name: 'value' }, { name: 'op', enum: 'NotifyOp', kwOnly: true },
  ]),
  op('pld.system.wait', 'pld.system.wait', [], [
    { name: 'signal' }, { name: 'offsets' }, { name: 'expected' }, { name: 'cmp', enum: 'WaitCmp', kwOnly: true },
  ]),
  op('pld.tensor.barrier', 'pld.tensor.barrier', [], p('signal')),
  op('system.cacheinvalid', 'pl.system.cacheinvalid', [], p('tensor', 'shapes', 'offsets')),
  op('system.fence', 'pl.system.fence', [], []),
  op('system.task_dummy', 'pl.system.task_dummy', [], []),
  op('system.task_invalid', 'pl.system.task_invalid', [], []),
  op('array.create', 'pl.array.create', [], p('extent', 'dtype')),
  op('array.get_element', 'pl.array.get_element', [], p('array', 'index')),
  op('array.update_element', 'pl.array.update_element', [], p('array', 'index', 'value')),
  op('yield_', 'pl.yield_', [], []),
  op('set_cache_policy', 'pl.set_cache_policy', [], [{ name: 't' }, { name: 'policy', enum: 'CachePolicy' }], {
    keywordsToPositions: false,
  }),
];

const bySpelling = new Map<string, OpSpec>();
const byCanonical = new Map<string, OpSpec>();
for (const spec of OPS) {
  byCanonical.set(spec.canonical, spec);
  for (const s of spec.spellings) bySpelling.set(s, spec);
}

/** The op a dotted callee spelling (`pl.store`, `pl.tile.store`) means, if the table knows it. */
export function opBySpelling(spelling: string): OpSpec | undefined {
  return bySpelling.get(spelling);
}

/** The op with this canonical name, if the table knows it. */
export function opByCanonical(canonical: string): OpSpec | undefined {
  return byCanonical.get(canonical);
}
