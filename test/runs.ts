/**
 * How many cases a property test draws. `npm test` draws a quarter of each property's full count
 * (at least 10), so the suite stays quick enough to run often; `npm run test:deep`
 * (`PTOLOG_DEEP=1`, which CI also runs) draws the full count.
 */
const deep = process.env['PTOLOG_DEEP'] === '1';

/** fast-check parameters for a property whose full size is `full` runs. */
export function runs(full: number): { numRuns: number } {
  return { numRuns: deep ? full : Math.max(10, Math.round(full / 4)) };
}

/** Every `every`th item of `items` (from the first) in `npm test`; under `npm run test:deep`, all of them. */
export function sampled<T>(items: readonly T[], every: number): T[] {
  return deep ? [...items] : items.filter((_, i) => i % every === 0);
}
