// An array filled by push (packed elements in every tier), for arrays optimised code reads.

/**
 * `xs.map(f)` as an array of packed elements whatever tier runs it: V8's optimised `map` makes a
 * holey array where the interpreter's makes a packed one, and a compiled join that met one kind
 * is thrown away (and compiled again) when it meets the other.
 */
export function packed<T, U>(xs: readonly T[], f: (x: T) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < xs.length; i++) out.push(f(xs[i]!));
  return out;
}
