/**
 * vitest globalSetup: one compiled-rules cache directory for this run of the suite, shared by
 * every test file (test/session.ts). Its entries carry a version drawn for this run, so no run
 * ever reads what another run (another build of the engine) compiled; removed at the end.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's compiled-rules cache: its directory and the version its entries carry. */
    ruleCache: { dir: string; version: string };
  }
}

/**
 * Hands the run's cache directory to the test files of `project` (every project of the run gets
 * the same one: it is named by the vitest process); returns its removal.
 */
export default function setup(project: TestProject): () => void {
  const run = `${process.pid}-${Math.round(performance.timeOrigin)}`;
  const dir = join(tmpdir(), `ptolog-test-rules-${run}`);
  mkdirSync(dir, { recursive: true });
  project.provide('ruleCache', { dir, version: `test-${run}` });
  return () => rmSync(dir, { recursive: true, force: true });
}
