// How many cases each fuzz property runs: PTOLOG_FUZZ_RUNS, default 200.

/** The number of runs of a fuzz property (PTOLOG_FUZZ_RUNS, default 200; `scale` multiplies it for cheap properties). */
export function fuzzRuns(scale = 1): number {
  const n = Number(process.env['PTOLOG_FUZZ_RUNS'] ?? 200);
  return Math.max(1, Math.round((Number.isFinite(n) && n > 0 ? n : 200) * scale));
}
