import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
// @ts-expect-error: bin/ is plain JavaScript (no declarations)
import { V8_FLAGS } from './bin/code-cache.js';

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
  'test/passes/arena-reserve.test.ts',
  'test/passes/fix-edits-scale.test.ts',
];

// The longest files start first (else, on a clean clone with no timings from an earlier run,
// vitest starts the larger files first, and a long small file can run alone at the end).
const LONGEST = [
  'test/lsp/parity-server.test.ts',
  'test/lsp/parity-playground.test.ts',
  'test/lsp/server.test.ts',
  'test/verify/task-order.test.ts',
  'test/facts/released-tree.test.ts',
  'test/golden.test.ts',
  'test/cli/rule-cache.test.ts',
  'test/verify/user-contract.test.ts',
  'test/passes/rule-session.test.ts',
  'test/facts/streaming-parse.test.ts',
  'test/verify/shrink.test.ts',
];

/** vitest's order (groups, projects, earlier timings), with the LONGEST files moved to the front of their project. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = LONGEST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i < 0 ? LONGEST.length : i;
    };
    const at = new Map(sorted.map((f, i) => [f, i]));
    return sorted.sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        (a.project.name === b.project.name ? 0 : a.project.name < b.project.name ? -1 : 1) ||
        rank(a) - rank(b) ||
        at.get(a)! - at.get(b)!,
    );
  }
}

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One fork per core (vitest's default leaves one core idle: a single fork on a 2-core CI machine).
    maxWorkers: availableParallelism(),
    setupFiles: ['test/setup.ts'],
    // The V8 flags the CLI runs under (docs/benchmarks.md, "Compiler tiering"): the suite runs the
    // library as the CLI does (the golden and property files: 41 -> 25 s of wall time, measured).
    execArgv: (V8_FLAGS as string).split(' '),
    sequence: { sequencer: LongestFirst },
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
