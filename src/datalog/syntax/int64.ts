// 64-bit signed numbers as a 64-bit Soufflé build computes them (wrapping + - *, `/` truncating
// toward zero, `%` with the dividend's sign, exact comparisons), held in JS doubles:
// - a value with |v| <= 2^53 - 1 is the double itself ("plain": every engine value today);
// - any other value is a box: its index in a per-database table of BigInts, encoded as a double
//   at or below -2^62 (BOX_BASE - index * 1024, all distinct), never a plain value.
// Equal values have equal encodings (the table interns), so joins, hashing and `=` stay plain
// double operations; arithmetic and ordering take a BigInt slow path only when an operand is a
// box or the plain result leaves the safe range (one range check on the fast path).

/** Largest plain magnitude: 2^53 - 1. */
export const SAFE = Number.MAX_SAFE_INTEGER;
const SAFE_BIG = BigInt(SAFE);
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
const BOX_BASE = -(2 ** 62);
const BOX_STEP = 1024;

/** A decoded number: a JS number when |v| <= 2^53 - 1, else a bigint (one spelling per value). */
export type Num = number | bigint;

/** The canonical decoded form of a 64-bit value (a number when safe, else a bigint). */
export function normNum(v: bigint): Num {
  return v >= -SAFE_BIG && v <= SAFE_BIG ? Number(v) : v;
}

/** A decoded number as a bigint. */
export function bigOf(v: Num): bigint {
  return typeof v === 'bigint' ? v : BigInt(v);
}

/** True when `v` is an integer within the signed 64-bit range (a number or a bigint). */
export function isInt64(v: unknown): v is Num {
  if (typeof v === 'bigint') return v >= INT64_MIN && v <= INT64_MAX;
  return typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 63) && v < 2 ** 63;
}

/** `l op r` on decoded 64-bit values (wrapping), or null for a division by zero. */
export function arith64(op: '+' | '-' | '*' | '/' | '%', l: Num, r: Num): Num | null {
  const a = bigOf(l);
  const b = bigOf(r);
  switch (op) {
    case '+':
      return normNum(BigInt.asIntN(64, a + b));
    case '-':
      return normNum(BigInt.asIntN(64, a - b));
    case '*':
      return normNum(BigInt.asIntN(64, a * b));
    case '/':
      return b === 0n ? null : normNum(BigInt.asIntN(64, a / b));
    case '%':
      return b === 0n ? null : normNum(BigInt.asIntN(64, a % b));
  }
}

const DECIMAL = /^[+-]?[0-9]+$/;

/** A decimal integer (optional sign, digits only, whole string) within 64 bits, else null. */
export function parseInt64(s: string): Num | null {
  if (!DECIMAL.test(s)) return null;
  if (s.length <= 15) return Number(s) + 0; // at most 15 digits: below 2^53, exact
  const v = BigInt(s);
  return v < INT64_MIN || v > INT64_MAX ? null : normNum(v);
}

/**
 * The boxes of one database, and arithmetic over encoded values (the `N` of generated code).
 * Plain values need no table; a box is only meaningful with the table that made it.
 */
export class Int64Table {
  private readonly values: bigint[] = [];
  private readonly ids = new Map<bigint, number>();

  /** The encoding of a 64-bit value given as a bigint (wrapped to 64 bits first). */
  fromBig(v0: bigint): number {
    const v = BigInt.asIntN(64, v0);
    if (v >= -SAFE_BIG && v <= SAFE_BIG) return Number(v);
    let id = this.ids.get(v);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(v);
      this.ids.set(v, id);
    }
    return BOX_BASE - id * BOX_STEP;
  }

  /** The encoding of a decoded number (a number must be a safe integer or in 64-bit range). */
  encode(v: Num): number {
    return typeof v === 'number' && v >= -SAFE && v <= SAFE ? v + 0 : this.fromBig(bigOf(v));
  }

  /** The encoding of `v` when it is plain or already boxed, else null (no tuple holds it). */
  lookup(v: Num): number | null {
    if (typeof v === 'number' && v >= -SAFE && v <= SAFE) return v + 0;
    const b = bigOf(v);
    if (b >= -SAFE_BIG && b <= SAFE_BIG) return Number(b);
    const id = this.ids.get(b);
    return id === undefined ? null : BOX_BASE - id * BOX_STEP;
  }

  /** The value of an encoding, as a bigint. */
  big(x: number): bigint {
    return x >= -SAFE ? BigInt(x) : this.values[(BOX_BASE - x) / BOX_STEP]!;
  }

  /** The decoded value of an encoding (a number when safe, else a bigint). */
  decode(x: number): Num {
    return x >= -SAFE ? x : this.values[(BOX_BASE - x) / BOX_STEP]!;
  }

  /** A double close to the value (exact when plain), for clipping string positions. */
  approx(x: number): number {
    return x >= -SAFE ? x : Number(this.big(x));
  }

  add(a: number, b: number): number {
    // Boxes are <= -2^62 and plain values within ±2^53: a sum involving a box leaves the range.
    const r = a + b;
    return r >= -SAFE && r <= SAFE ? r : this.fromBig(this.big(a) + this.big(b));
  }

  sub(a: number, b: number): number {
    if (b >= -SAFE) {
      const r = a - b;
      if (r >= -SAFE && r <= SAFE) return r;
    }
    return this.fromBig(this.big(a) - this.big(b));
  }

  mul(a: number, b: number): number {
    // Exact when the true product is safe; a box times 0 is 0, times anything else leaves the range.
    const r = a * b;
    return r >= -SAFE && r <= SAFE ? r + 0 : this.fromBig(this.big(a) * this.big(b));
  }

  /** Truncating division; null when `b` is 0. */
  div(a: number, b: number): number | null {
    if (b === 0) return null;
    if (a >= -SAFE && b >= -SAFE) return Math.trunc(a / b) + 0;
    return this.fromBig(this.big(a) / this.big(b));
  }

  /** Remainder with the dividend's sign; null when `b` is 0. */
  mod(a: number, b: number): number | null {
    if (b === 0) return null;
    if (a >= -SAFE && b >= -SAFE) return (a % b) + 0;
    return this.fromBig(this.big(a) % this.big(b));
  }

  neg(a: number): number {
    return a >= -SAFE ? 0 - a : this.fromBig(-this.big(a));
  }

  /** `a < b` on values. */
  lt(a: number, b: number): boolean {
    return a >= -SAFE && b >= -SAFE ? a < b : this.big(a) < this.big(b);
  }

  le(a: number, b: number): boolean {
    return a >= -SAFE && b >= -SAFE ? a <= b : this.big(a) <= this.big(b);
  }

  /** The smaller of two values. */
  min(a: number, b: number): number {
    return this.lt(b, a) ? b : a;
  }

  /** The larger of two values. */
  max(a: number, b: number): number {
    return this.lt(a, b) ? b : a;
  }

  /** -1, 0 or 1 as `a` is below, equal to or above `b`. */
  cmp(a: number, b: number): number {
    return a === b ? 0 : this.lt(a, b) ? -1 : 1;
  }

  /** The decimal text of a value (`to_string`). */
  str(a: number): string {
    return a >= -SAFE ? `${a}` : `${this.big(a)}`;
  }

  /** `to_number(s)`: the value of a decimal integer within 64 bits, else null. */
  parse(s: string): number | null {
    const v = parseInt64(s);
    return v === null ? null : this.encode(v);
  }
}
