// The playground's analysis (its worker's PlaygroundAnalyzer, every pass, no project around the
// kernel) reports `ptolog audit`'s findings on every golden input audited with every pass.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { RuleSession } from '../../src/passes/rule-session.js';
import { SourceText } from '../../src/report/source.js';
import { cliFindings, root, suites } from './parity-common.js';

// (The playground's in-memory file system holds its extra rules; here the rules are read from disk.)
vi.mock('../../playground/src/shims/fs.js', () => ({ setVirtualFile: () => undefined }));

/** What the playground's analysis gives (playground/src/analysis.ts, imported by path: its types are the playground's). */
interface PlaygroundFinding {
  severity: string;
  code: string;
  message: string;
  file: string;
  from: number;
  to: number;
  fix?: string;
  pass: string;
}
interface PlaygroundAnalyzerLike {
  analyzeSteps(
    id: number,
    kernel: string,
    rules: string,
    asWritten?: boolean,
  ): Generator<unknown, { kind: string; findings?: PlaygroundFinding[]; message?: string }, void>;
}

/** The findings of the playground's analysis of `text`, as cliFindings gives them (without notes: the page shows none). */
async function playgroundFindings(
  analyzer: PlaygroundAnalyzerLike,
  text: string,
  input: string,
  asWritten: boolean,
  only: string[],
): Promise<string[]> {
  const steps = analyzer.analyzeSteps(1, text, '', asWritten);
  let step = steps.next();
  while (!step.done) step = steps.next();
  const r = step.value;
  if (r.kind !== 'analyzed') throw new Error(`the playground failed: ${r.message}`);
  const src = new SourceText(input, text);
  return r
    .findings!.filter((f) => only.length === 0 || f.pass === '' || only.includes(f.pass))
    .map((f) => {
      if (f.file !== 'kernel.py') return `elsewhere ${f.severity} ${f.code}`;
      const a = src.position(f.from);
      const b = src.position(f.to);
      const message = f.message.replaceAll('kernel.py', input) + (f.fix ? `\nfix: ${f.fix}` : '');
      return `${a.line}:${a.col}-${b.line}:${b.col} ${f.severity} ${f.code} ${message}`;
    })
    .sort();
}

/** The CLI's findings as the playground shows them (no notes). */
async function cliFindingsNoNotes(flags: string[], input: string): Promise<string[]> {
  return (await cliFindings(flags, input, false)).sort();
}

/** Suites the playground does not match, and why. */
const PLAYGROUND_NOT = new Map([['specs/modules', 'the playground holds one file: there is no project to import helpers from']]);
for (const s of suites()) {
  if (existsSync(join(root, s.dir, 'pyproject.toml')) || existsSync(join(root, s.dir, 'ptolog.toml')))
    PLAYGROUND_NOT.set(s.dir, 'the playground reads no configuration file');
}

describe("the playground's analysis reports what ptolog audit reports", () => {
  // Every pass (the playground runs them all), or some passes as written (then no contract composes with another).
  const asWrittenFlag = (f: string[]): boolean => f.includes('--as-written') || f.join(' ').includes('--stage as-written');
  const playgroundSuites = suites().filter((s) => {
    if (s.flags.some((f) => f === '-D' || f === '--rules')) return false;
    return !s.flags.includes('--pass') || asWrittenFlag(s.flags);
  });
  for (const suite of playgroundSuites) {
    const why = PLAYGROUND_NOT.get(suite.dir);
    it.skipIf(why !== undefined)(
      `${suite.dir}: audit ${suite.flags.join(' ')} (${suite.inputs.length} inputs)${why ? ` — skipped: ${why}` : ''}`,
      async () => {
        const path = '../../playground/src/analysis.js';
        const { PlaygroundAnalyzer } = (await import(path)) as {
          PlaygroundAnalyzer: new (session: RuleSession) => PlaygroundAnalyzerLike;
        };
        // (Rule paths shown from here, as the CLI shows them; the page shows them from its virtual root.)
        const analyzer = new PlaygroundAnalyzer(new RuleSession());
        const asWritten = asWrittenFlag(suite.flags);
        const only = suite.flags.flatMap((f, k) => (suite.flags[k - 1] === '--pass' ? [f] : []));
        for (const input of suite.inputs) {
          const text = readFileSync(input, 'utf8');
          expect({ input, findings: await playgroundFindings(analyzer, text, input, asWritten, only) }).toEqual({
            input,
            findings: await cliFindingsNoNotes(suite.flags, input),
          });
        }
      },
      300_000,
    );
  }
});
