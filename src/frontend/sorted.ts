/** Binary search over ascending offsets (comment starts, text positions). */

/** The index of the first element of ascending `sorted` that is ≥ `x` (`sorted.length` when none is). */
export function firstAtOrAfter(sorted: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
