import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The fuzz harness (`vitest run --config fuzz/vitest.config.ts`): not part of the default test
// run. Runs are counted by PTOLOG_FUZZ_RUNS, so the timeout is generous.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['fuzz/**/*.fuzz.ts'],
    testTimeout: 6 * 60 * 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['test/setup.ts'],
  },
});
