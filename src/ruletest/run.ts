/**
 * Runs one annotated rule test: audits the kernel and compares each finding with the
 * annotations (every `# expect:` reported, no `# ok:` reported, nothing unannotated), and,
 * when `NAME.fixed.py` exists, compares `apply`'s output with it.
 */

import { sortDiagnostics } from '../passes/findings.js';
import { DiagnosticError } from '../report/diagnostic.js';
import { SourceText } from '../report/source.js';
import type { Runner } from '../runner/runner.js';
import type { Annotations } from './annotations.js';

export interface RuleTestInput {
  path: string;
  text: string;
  annotations: Annotations;
  /** The expected output of `apply`, when `NAME.fixed.py` exists. */
  fixed?: { path: string; text: string };
}

export interface RuleTestResult {
  passed: number;
  /** One line per failing expectation: `file:line: expected ..., got ...`. */
  failures: string[];
}

const list = (codes: Iterable<string>): string => [...codes].sort().join(', ');

/** Audits `t` as written (and applies it) with `runner`, and checks its annotations. */
export function runRuleTest(t: RuleTestInput, runner: Runner): RuleTestResult {
  const out: RuleTestResult = { passed: 0, failures: [] };
  // Annotations state what the rules find in the text as it stands (`audit --as-written`).
  const audit = runner.with({ stage: 'as-written' }).audit(t.text, t.path);
  const findings = sortDiagnostics([...audit.readErrors, ...audit.findings]);
  const got = new Map<number, Map<string, string>>();
  for (const d of findings) {
    const line = d.location ? d.location.source.lineOf(d.location.start) : 1;
    const m = got.get(line) ?? new Map<string, string>();
    if (!m.has(d.code)) m.set(d.code, d.message);
    got.set(line, m);
  }
  const lines = [...new Set([...t.annotations.expect.keys(), ...t.annotations.ok.keys(), ...got.keys()])].sort((a, b) => a - b);
  for (const line of lines) {
    const expected = t.annotations.expect.get(line) ?? new Set<string>();
    const forbidden = t.annotations.ok.get(line) ?? new Set<string>();
    const reported = got.get(line) ?? new Map<string, string>();
    const gotText = reported.size > 0 ? list(reported.keys()) : 'nothing';
    for (const code of [...expected].sort()) {
      if (reported.has(code)) out.passed++;
      else out.failures.push(`${t.path}:${line}: expected ${code}, got ${gotText}`);
    }
    for (const code of [...forbidden].sort()) {
      if (!reported.has(code)) out.passed++;
      else out.failures.push(`${t.path}:${line}: expected no ${code} (# ok), got ${code}: ${reported.get(code)}`);
    }
    for (const [code, message] of reported) {
      if (!expected.has(code) && !forbidden.has(code)) {
        out.failures.push(`${t.path}:${line}: expected nothing, got ${code}: ${message} (annotate it with # expect: ${code})`);
      }
    }
  }
  if (t.fixed) {
    let applied: string | null = null;
    try {
      applied = runner.apply(t.text, t.path).text;
    } catch (e) {
      if (!(e instanceof DiagnosticError)) throw e;
      out.failures.push(
        `${t.path}: expected apply's output to be ${t.fixed.path}, got a refusal: ${e.diagnostics.map((d) => `${d.code}: ${d.message}`).join('; ')}`,
      );
    }
    if (applied !== null) {
      if (applied === t.fixed.text) out.passed++;
      else out.failures.push(firstDifference(t.fixed.path, t.fixed.text, applied));
    }
  }
  return out;
}

/** `fixed.py:LINE: expected "...", got "..."` at the first line where apply's output differs. */
function firstDifference(path: string, want: string, got: string): string {
  const a = new SourceText(path, want);
  const b = new SourceText(path, got);
  const n = Math.max(a.lineCount, b.lineCount);
  for (let line = 1; line <= n; line++) {
    const x = line <= a.lineCount ? a.lineText(line) : null;
    const y = line <= b.lineCount ? b.lineText(line) : null;
    if (x !== y) {
      const show = (s: string | null): string => (s === null ? 'end of file' : JSON.stringify(s.trim()));
      return `${path}:${line}: expected ${show(x)}, got ${show(y)} (apply's output differs from this file)`;
    }
  }
  return `${path}:1: expected this file, got apply's output that differs only in line endings`;
}
