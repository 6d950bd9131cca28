/**
 * The frontend's op table: short and qualified spellings of the ops the frontend normalises, their canonical
 * names, their positional parameters (keywords naming one move into its position), and the
 * enum type of parameters that take one. The frontend normalises calls with it; the printer
 * prints canonical names and enum values with it. Ops it does not list keep the name they
 * were written with. It is read, when this module loads, from the op catalog
 * (rules/op_catalog.dl: `frontend_op`, `frontend_enum_param`, `frontend_keywords_stay`, `frontend_declaration`,
 * `frontend_attr_int_enum`, `dsl_enum`, `dsl_data_type`, with the ops' `op_entry` / `op_spelling` / `op_param` /
 * `op_kw_only`): what ptolog knows about ops is written once, there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** An enum the DSL exposes, e.g. `pld.NotifyOp` with `AtomicAdd = 0`. */
export interface EnumSpec {
  module: 'pl' | 'pld';
  /** Member name -> integer value (members whose value ptolog does not know map to -1). */
  members: Record<string, number>;
}

/** The DSL's enums, from the catalog's `dsl_enum` facts. */
export const ENUMS: Record<string, EnumSpec> = {};

/**
 * `pl.func_attr` entries whose payload stores members of an enum as integers: key → enum
 * (`frontend_attr_int_enum`). In such an entry's value a member reads as its integer value.
 */
export const FUNC_ATTR_INT_ENUMS: ReadonlyMap<string, string> = new Map();

/** Data types written bare as `pl.FP32`; they become `Enum` nodes of enum `DataType` (`dsl_data_type`). */
export const DATA_TYPES: ReadonlySet<string> = new Set();

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
  /**
   * A statement of this op is a declaration of its first argument (`frontend_declaration`:
   * `pl.set_cache_policy`): bodies print it first, and equality ignores the order of declarations.
   */
  declaration?: boolean;
}

/** The ops the frontend normalises (`frontend_op` facts), in the catalog's order. */
export const OPS: readonly OpSpec[] = [];

/** One fact of the catalog: relation and values (strings unquoted, integers as numbers). */
type Fact = [string, (string | number)[]];

/** The facts `rel(v, ...).` of a rule file's text, one per line (comments and rules skipped). */
function factsOf(text: string): Fact[] {
  const out: Fact[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-z_][a-z0-9_]*)\((.*)\)\.\s*(?:\/\/.*)?$/.exec(line.trim());
    if (!m) continue;
    const values: (string | number)[] = [];
    const re = /\s*(?:"((?:[^"\\]|\\.)*)"|(-?\d+))\s*(?:,|$)/y;
    let ok = true;
    for (let at = 0; at < m[2]!.length && ok; ) {
      re.lastIndex = at;
      const v = re.exec(m[2]!);
      if (!v) ok = false;
      else {
        values.push(v[1] !== undefined ? v[1].replace(/\\(.)/g, '$1') : Number(v[2]));
        at = re.lastIndex;
      }
    }
    if (ok) out.push([m[1]!, values]);
  }
  return out;
}

/** Fills ENUMS, DATA_TYPES, FUNC_ATTR_INT_ENUMS and OPS from the op catalog's text. */
function readCatalog(text: string): void {
  const facts = factsOf(text);
  const of = (rel: string): (string | number)[][] => facts.filter((f) => f[0] === rel).map((f) => f[1]);
  for (const [e, module, member, value] of of('dsl_enum')) {
    const spec = (ENUMS[e as string] ??= { module: module as 'pl' | 'pld', members: {} });
    spec.members[member as string] = value as number;
  }
  for (const [d] of of('dsl_data_type')) (DATA_TYPES as Set<string>).add(d as string);
  for (const [key, e] of of('frontend_attr_int_enum')) (FUNC_ATTR_INT_ENUMS as Map<string, string>).set(key as string, e as string);
  const spellings = new Map<string, string[]>();
  for (const [op, sp] of [...of('op_entry'), ...of('op_spelling')])
    spellings.set(op as string, [...(spellings.get(op as string) ?? []), sp as string]);
  const params = new Map<string, string[]>();
  for (const [op, i, name] of of('op_param'))
    (params.get(op as string) ?? params.set(op as string, []).get(op as string)!)[i as number] = name as string;
  const kwOnly = new Set(of('op_kw_only').map(([op, name]) => `${op}.${name}`));
  const enums = new Map(of('frontend_enum_param').map(([op, param, e]) => [`${op}.${param}`, e as string]));
  const stay = new Set(of('frontend_keywords_stay').map(([op]) => op as string));
  const declarations = new Set(of('frontend_declaration').map(([op]) => op as string));
  for (const [op, printName, positional] of of('frontend_op')) {
    const canonical = op as string;
    const names = (params.get(canonical) ?? []).slice(0, positional as number);
    const ps: OpParam[] = names.map((name) => {
      const e = enums.get(`${canonical}.${name}`);
      return { name, ...(e ? { enum: e } : {}), ...(kwOnly.has(`${canonical}.${name}`) ? { kwOnly: true } : {}) };
    });
    const kwEnums = Object.fromEntries(
      [...enums]
        .filter(([k]) => k.startsWith(`${canonical}.`) && !names.includes(k.slice(canonical.length + 1)))
        .map(([k, e]) => [k.slice(canonical.length + 1), e]),
    );
    (OPS as OpSpec[]).push({
      canonical,
      printName: printName as string,
      spellings: [printName as string, ...(spellings.get(canonical) ?? []).filter((x) => x !== printName)],
      params: ps,
      ...(Object.keys(kwEnums).length > 0 ? { kwEnums } : {}),
      ...(stay.has(canonical) ? { keywordsToPositions: false } : {}),
      ...(declarations.has(canonical) ? { declaration: true } : {}),
    });
  }
}

// This file is src/ir/ops.ts (tests) or dist/ir/ops.js (CLI): the package root is two levels up
// (as registry.ts finds rules/; the playground's file system serves it at /rules/).
readCatalog(readFileSync(join(fileURLToPath(new URL('../..', import.meta.url)), 'rules', 'op_catalog.dl'), 'utf8'));

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
