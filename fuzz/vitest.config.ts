import { defineConfig } from 'vitest/config';
// @ts-expect-error: bin/ is plain JavaScript (no declarations)
import { V8_FLAGS } from '../bin/code-cache.js';

// The fuzz harness (`npm run fuzz`, not part of `npm test`): property tests over many more cases
// than the unit tests run. PTOLOG_FUZZ_RUNS sets the number of cases of each property (default
// 200; see fuzz/runs.ts); no test has a time limit, so a large count runs to its end.
// PTOLOG_SEED reproduces a run (test/setup.ts).
export default defineConfig({
  test: {
    include: ['fuzz/**/*.fuzz.ts'],
    testTimeout: 0,
    hookTimeout: 0,
    pool: 'forks',
    setupFiles: ['test/setup.ts'],
    // The V8 flags the CLI runs under (docs/benchmarks.md, "Compiler tiering").
    execArgv: (V8_FLAGS as string).split(' '),
  },
});
