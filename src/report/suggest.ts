/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

/**
 * The Levenshtein distance of `a` and `b` when it is at most `max`, else `max + 1`: only the
 * band of width 2·max+1 around the diagonal is computed, O(min(|a|, |b|) · max).
 */
export function editDistanceWithin(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length > b.length) [a, b] = [b, a];
  const far = max + 1;
  // row[j] for j in [i - max, i + max], stored at j - i + max.
  let prev = new Array<number>(2 * max + 1).fill(far);
  let cur = new Array<number>(2 * max + 1).fill(far);
  for (let j = 0; j <= Math.min(max, b.length); j++) prev[j + max] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = far;
    for (let d = -max; d <= max; d++) {
      const j = i + d;
      const at = d + max;
      if (j < 0 || j > b.length) {
        cur[at] = far;
        continue;
      }
      let v = j === 0 ? i : far;
      if (j > 0) {
        v = Math.min(v, prev[at]! + (a[i - 1] === b[j - 1] ? 0 : 1)); // diagonal: (i-1, j-1)
        if (at > 0) v = Math.min(v, cur[at - 1]! + 1); // left: (i, j-1)
      }
      if (at < 2 * max) v = Math.min(v, prev[at + 1]! + 1); // up: (i-1, j)
      cur[at] = Math.min(v, far);
      if (cur[at]! < rowMin) rowMin = cur[at]!;
    }
    if (rowMin > max) return far;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length - a.length + max]!;
}

/** The most edits a "did you mean" suggestion is apart (a long name is not compared edit by edit with every other). */
const MAX_SUGGESTION_EDITS = 10;

/** The known name closest to `name` (for "did you mean ...?"), or undefined when none is close. */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Math.min(Math.max(2, Math.floor(name.length / 3)), MAX_SUGGESTION_EDITS) + 1;
  for (const k of known) {
    // The distance is at least the difference in length: skip the work when that is already too far.
    if (Math.abs(k.length - name.length) >= bestD) continue;
    const d = editDistanceWithin(name, k, bestD - 1);
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best;
}
