import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Tests that run other processes (the language server, a browser) form a second group that
// starts after the first has finished, so they never compete with the property tests for the CPU.
const PROCESS_TESTS = ['test/lsp/server.test.ts', 'test/playground/**/*.test.ts', 'test/souffle/**/*.test.ts'];
// Files that need modules of their own (a module mock) or a heap of their own (they measure what
// a collection gives back) run isolated; the other unit files share their worker's modules, so
// the library and the rules they load are imported and compiled once per worker, not per file.
const ISOLATED = [
  'test/lsp/parity-playground.test.ts',
  'test/passes/parse-count.test.ts',
  'test/facts/released-tree.test.ts',
  'test/cli/collect.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One fork per core (vitest's default leaves one core idle: a single fork on a 2-core CI machine).
    maxWorkers: availableParallelism(),
    setupFiles: ['test/setup.ts'],
    // One compiled-rules cache for the run (test/session.ts).
    globalSetup: ['test/setup/rule-cache-dir.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...PROCESS_TESTS, ...ISOLATED],
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'processes', include: PROCESS_TESTS, sequence: { groupOrder: 1 } } },
    ],
  },
});
