// Soufflé's intrinsic functors (cat, to_string, to_number, strlen, substr, min, max) and the
// `contains` constraint: signatures for the checker, string-level semantics for the naive
// evaluator and constant folding, and an id-level runtime (interning) for the fast evaluators.

import type { SymbolTable } from '../storage/symbols.js';
import type { FunctorName, Kind } from '../syntax/ast.js';
import { bigOf, type Int64Table, type Num, parseInt64 } from '../syntax/int64.js';

export interface FunctorSig {
  /** Kinds of the fixed parameters, or of every argument when `variadic`. */
  params: Kind[];
  variadic: boolean;
  result: Kind;
  /** How to call it, for arity messages. */
  usage: string;
  /** What it takes, for type messages ("cat takes symbols"). */
  takes: string;
}

export const FUNCTORS: Readonly<Record<FunctorName, FunctorSig>> = {
  cat: { params: ['symbol', 'symbol'], variadic: true, result: 'symbol', usage: 'cat(s1, s2, ...)', takes: 'symbols' },
  to_string: { params: ['number'], variadic: false, result: 'symbol', usage: 'to_string(n)', takes: 'a number' },
  to_number: { params: ['symbol'], variadic: false, result: 'number', usage: 'to_number(s)', takes: 'a symbol' },
  strlen: { params: ['symbol'], variadic: false, result: 'number', usage: 'strlen(s)', takes: 'a symbol' },
  substr: {
    params: ['symbol', 'number', 'number'],
    variadic: false,
    result: 'symbol',
    usage: 'substr(s, start, length)',
    takes: 'a symbol, a start and a length (numbers)',
  },
  min: { params: ['number', 'number'], variadic: true, result: 'number', usage: 'min(a, b, ...)', takes: 'numbers' },
  max: { params: ['number', 'number'], variadic: true, result: 'number', usage: 'max(a, b, ...)', takes: 'numbers' },
};

/** The signature of the `contains(sub, s)` constraint, for type messages. */
export const CONTAINS: FunctorSig = {
  params: ['symbol', 'symbol'],
  variadic: false,
  result: 'number',
  usage: 'contains(sub, s)',
  takes: 'symbols',
};

/** The kind argument `i` (0-based) of a functor must have. */
export function paramKind(sig: FunctorSig, i: number): Kind {
  return sig.params[Math.min(i, sig.params.length - 1)]!;
}

/** Null when `n` arguments fit the signature, else the arity message. */
export function arityProblem(name: string, sig: FunctorSig, n: number): string | null {
  const want = sig.params.length;
  if (sig.variadic ? n >= want : n === want) return null;
  const s = (k: number) => `${k} argument${k === 1 ? '' : 's'}`;
  return `${name} takes ${sig.variadic ? 'at least ' : ''}${s(want)} but is given ${n}`;
}

const ASCII = /^[\x00-\x7f]*$/;

/** `to_number(s)`: a decimal integer (optional sign, whole string, 64-bit), else null. */
export function toNumber(s: string): Num | null {
  return parseInt64(s);
}

// TextEncoder (not Node's Buffer): the engine also runs in the browser (the playground).
const UTF8 = new TextEncoder();

/** `strlen(s)`: the length in UTF-8 bytes, as Soufflé's std::string::size(). */
export function strlen(s: string): number {
  return ASCII.test(s) ? s.length : UTF8.encode(s).length;
}

/**
 * `substr(s, start, length)` on UTF-8 bytes with std::string::substr's semantics: a start below 0
 * or past the end gives "" (Soufflé also prints a warning); a negative length means "to the end".
 */
export function substr(s: string, start: number, length: number): string {
  if (ASCII.test(s)) {
    if (start < 0 || start > s.length) return '';
    return length < 0 ? s.slice(start) : s.slice(start, start + length);
  }
  const b = UTF8.encode(s);
  if (start < 0 || start > b.length) return '';
  return new TextDecoder().decode(b.subarray(start, length < 0 ? b.length : Math.min(b.length, start + length)));
}

/** The signature of the `match(pattern, s)` constraint, for type messages. */
export const MATCH: FunctorSig = {
  params: ['symbol', 'symbol'],
  variadic: false,
  result: 'number',
  usage: 'match(pattern, s)',
  takes: 'symbols',
};

/** A regular expression that matches a whole string as std::regex_match does; null when the pattern is invalid. */
export function compilePattern(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    return null;
  }
}

/**
 * `match(pattern, s)`: true when the regular expression (ECMAScript syntax, as Soufflé's
 * std::regex) matches all of `s`; an invalid pattern matches nothing (Soufflé warns and fails too).
 */
export function regexMatch(pattern: string, s: string): boolean {
  return compilePattern(pattern)?.test(s) ?? false;
}

/** `contains(sub, s)`: true when `sub` occurs in `s`. */
export function contains(sub: string, s: string): boolean {
  return s.includes(sub);
}

/** A functor applied to decoded values (symbols as strings, canonical numbers); null when it has no value. */
export function applyFunctor(fn: FunctorName, args: readonly (string | Num)[]): string | Num | null {
  switch (fn) {
    case 'cat':
      return args.join('');
    case 'to_string':
      return String(args[0]);
    case 'to_number':
      return toNumber(args[0] as string);
    case 'strlen':
      return strlen(args[0] as string);
    case 'substr':
      return substr(args[0] as string, Number(args[1] as Num), Number(args[2] as Num));
    case 'min':
      return (args as Num[]).reduce((a, b) => (bigOf(b) < bigOf(a) ? b : a));
    case 'max':
      return (args as Num[]).reduce((a, b) => (bigOf(b) > bigOf(a) ? b : a));
  }
}

/**
 * Functors over interned values, for compiled plans (`F` in the generated code) and the plan
 * interpreter: symbols are ids of `symbols`, new strings are interned when produced.
 */
export class FunctorRuntime {
  /** The symbol strings by id (the table's own array: it only grows). */
  readonly str: readonly (string | undefined)[];
  /** The database's 64-bit numbers (arithmetic over encoded values). */
  readonly num: Int64Table;

  constructor(readonly symbols: SymbolTable) {
    this.str = symbols.texts();
    this.num = symbols.numbers;
  }

  /** The id of a string, interning it. */
  id(s: string): number {
    return this.symbols.intern(s);
  }

  /** The id of a string, or -1 (matching no tuple) when it was never interned. */
  key(s: string): number {
    return this.symbols.lookup(s);
  }

  /** `to_number(s)` as an encoded value, or null. */
  toNumber(s: string): number | null {
    return this.num.parse(s);
  }

  strlen(s: string): number {
    return strlen(s);
  }

  /** `substr` with encoded start and length (a box is far out of any string's range). */
  substr(s: string, start: number, length: number): string {
    return substr(s, this.num.approx(start), this.num.approx(length));
  }

  /** A functor applied to interned values; null when it has no value. */
  apply(fn: FunctorName, args: readonly number[]): number | null {
    const sig = FUNCTORS[fn];
    const vals = args.map((a, i) => (paramKind(sig, i) === 'symbol' ? this.str[a]! : this.num.decode(a)));
    const v = applyFunctor(fn, vals);
    if (v === null) return null;
    return typeof v === 'string' ? this.id(v) : this.num.encode(v);
  }

  private readonly patterns = new Map<string, RegExp | null>();

  /** `match(pattern, s)` on strings, each pattern compiled once per runtime. */
  match(pattern: string, s: string): boolean {
    let re = this.patterns.get(pattern);
    if (re === undefined) {
      re = compilePattern(pattern);
      this.patterns.set(pattern, re);
    }
    return re?.test(s) ?? false;
  }

  /** `contains(sub, s)` on interned symbols. */
  contains(sub: number, s: number): boolean {
    return this.str[s]!.includes(this.str[sub]!);
  }
}

const runtimes = new WeakMap<SymbolTable, FunctorRuntime>();

/** The functor runtime of a symbol table (one per table). */
export function functorRuntime(symbols: SymbolTable): FunctorRuntime {
  let r = runtimes.get(symbols);
  if (!r) runtimes.set(symbols, (r = new FunctorRuntime(symbols)));
  return r;
}
