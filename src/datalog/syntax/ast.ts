// The abstract syntax of a rule file, produced by the parser and read by every later stage.
import type { Location } from '../../report/diagnostic.js';

/** The two kinds of values a column can hold (Soufflé's primitive types). */
export type Kind = 'symbol' | 'number';

/**
 * A value of a tuple: a symbol is a string, a number a signed 64-bit integer — a JS number when
 * |v| <= 2^53 - 1, else a bigint (engine results always use that canonical form; inputs may give
 * a bigint or an integral number for any 64-bit value).
 */
export type Value = string | number | bigint;

export type ArithOp = '+' | '-' | '*' | '/' | '%';
/** Comparisons, and Soufflé's `contains(sub, s)` constraint (`!contains` when negated). */
export type CmpOp = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'contains' | '!contains' | 'match' | '!match';

/** The string constraints `contains(sub, s)` and `match(pattern, s)`, and their negations. */
export function isStringConstraint(op: CmpOp): op is 'contains' | '!contains' | 'match' | '!match' {
  return op === 'contains' || op === '!contains' || op === 'match' || op === '!match';
}
/** Soufflé's intrinsic functors (see functors.ts for their signatures and semantics). */
export type FunctorName = 'cat' | 'to_string' | 'to_number' | 'strlen' | 'substr' | 'min' | 'max';
export type AggOp = 'count' | 'min' | 'max' | 'sum';

export type Term =
  | { kind: 'var'; name: string; loc: Location }
  | { kind: 'wildcard'; loc: Location }
  /** A number literal, exact (within the signed 64-bit range once checked). */
  | { kind: 'num'; value: bigint; loc: Location }
  | { kind: 'str'; value: string; loc: Location }
  | { kind: 'bin'; op: ArithOp; left: Term; right: Term; loc: Location }
  | { kind: 'neg'; arg: Term; loc: Location }
  | { kind: 'call'; fn: FunctorName; args: Term[]; loc: Location; nameLoc: Location }
  | { kind: 'agg'; op: AggOp; target: Term | null; body: Literal[]; loc: Location; locals?: string[] };

export interface Atom {
  rel: string;
  args: Term[];
  loc: Location;
  nameLoc: Location;
}

export type Literal =
  | { kind: 'atom'; atom: Atom; loc: Location }
  | { kind: 'neg'; atom: Atom; loc: Location }
  | { kind: 'cmp'; op: CmpOp; left: Term; right: Term; loc: Location };

/** One rule (or fact, with an empty body) after disjunctions were expanded. */
export interface Clause {
  head: Atom;
  body: Literal[];
  /** The whole rule text as written (shared by the clauses of one disjunctive rule). */
  loc: Location;
  isFact: boolean;
}

export interface AttrDecl {
  name: string;
  type: string;
  loc: Location;
}

export interface RelDecl {
  name: string;
  attrs: AttrDecl[];
  loc: Location;
  nameLoc: Location;
}

export interface TypeDecl {
  name: string;
  base: string;
  loc: Location;
  nameLoc: Location;
}

export interface IoDecl {
  directive: 'input' | 'output' | 'printsize';
  rel: string;
  loc: Location;
}

export interface IncludeDecl {
  path: string;
  /** `#include <...>`: looked up only in the include paths (and `ptolog/` in the shipped rules). */
  system: boolean;
  loc: Location;
}

/** The parse of one file: its statements in order (includes not yet resolved). */
export interface ParsedFile {
  decls: RelDecl[];
  types: TypeDecl[];
  io: IoDecl[];
  clauses: Clause[];
  includes: IncludeDecl[];
}

const NO_TERMS: readonly Term[] = [];

/** The operands of an arithmetic or functor term; none for other terms (aggregates included). */
export function operands(t: Term): readonly Term[] {
  switch (t.kind) {
    case 'bin':
      return [t.left, t.right];
    case 'neg':
      return [t.arg];
    case 'call':
      return t.args;
    default:
      return NO_TERMS;
  }
}

/** A copy of an arithmetic or functor term with each operand replaced by `f(operand)`. */
export function mapOperands(t: Term, f: (x: Term) => Term): Term {
  switch (t.kind) {
    case 'bin':
      return { ...t, left: f(t.left), right: f(t.right) };
    case 'neg':
      return { ...t, arg: f(t.arg) };
    case 'call':
      return { ...t, args: t.args.map(f) };
    default:
      return t;
  }
}

/** Every variable name in a term, in order of occurrence (aggregate bodies included). */
export function termVars(t: Term, out: string[] = []): string[] {
  switch (t.kind) {
    case 'var':
      out.push(t.name);
      break;
    case 'bin':
    case 'neg':
    case 'call':
      for (const x of operands(t)) termVars(x, out);
      break;
    case 'agg':
      if (t.target) termVars(t.target, out);
      for (const l of t.body) literalVars(l, out);
      break;
    default:
      break;
  }
  return out;
}

/** Every variable name in a literal, in order of occurrence. */
export function literalVars(l: Literal, out: string[] = []): string[] {
  if (l.kind === 'cmp') {
    termVars(l.left, out);
    termVars(l.right, out);
  } else for (const a of l.atom.args) termVars(a, out);
  return out;
}
