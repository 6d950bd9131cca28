// Integer hashing shared by relation sets and indexes.

/** Mixes one 32-bit value into a running hash. */
export function hashStep(h: number, v: number): number {
  h = Math.imul(h ^ v, 0xcc9e2d51);
  h = (h << 15) | (h >>> 17);
  return Math.imul(h, 0x1b873593) ^ 0x5bd1e995;
}

/** Final avalanche of a running hash (murmur3 fmix32). */
export function hashFinish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Mixes one stored value (a double: an int32, a wider safe integer or a box) into a running hash. */
export function hashValue(h: number, v: number): number {
  const lo = v | 0;
  return lo === v ? hashStep(h, lo) : hashStep(hashStep(h, lo), Math.floor(v / 4294967296) | 0);
}
