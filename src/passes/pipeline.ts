import type { ConstValue } from '../ir/nodes.js';
import { parseModule } from '../frontend/index.js';
import { printStmt } from '../ir/print.js';
import { rewrite, markerStmt } from '../rewrite/rewrite.js';
import { editCount } from '../rewrite/edits.js';
import { DiagnosticError, type Diagnostic } from '../report/diagnostic.js';
import { analyze, type Analysis, type AnalyzeOptions } from './analyze.js';
import { readEdits } from './read-edits.js';
import { readFindings, sortDiagnostics } from './findings.js';
import { extrasFor, type ExtraRuleFile } from './extra-rules.js';
import { PASSES, type PassSpec } from './registry.js';

export interface RunOptions {
  defines?: ReadonlyMap<string, ConstValue>;
  extras?: readonly ExtraRuleFile[];
  /** The directory used in place of the shipped `rules/` (`--rules-root`). */
  rulesRoot?: string;
  /** Evaluation stops with an EvaluationTimeout past this `performance.now()` value. */
  deadline?: number;
}

/** The rule files and evaluation options of `pass` under `opts`. */
export function passRules(pass: PassSpec, opts: RunOptions): { extra: string[]; analyze: AnalyzeOptions } {
  const a: AnalyzeOptions = {};
  if (opts.rulesRoot !== undefined) a.rulesRoot = opts.rulesRoot;
  if (opts.deadline !== undefined) a.deadline = opts.deadline;
  return { extra: extrasFor(pass, opts.extras ?? [], PASSES, opts.rulesRoot), analyze: a };
}

export interface PassOutcome {
  pass: string;
  /** Number of edits the pass applied. */
  applied: number;
}

/**
 * Runs `passes` in order on a file's text: each pass parses the current text, derives its
 * edits and patches the text; the next pass reads the patched text. A pass whose rules derive
 * an error finding refuses to rewrite (DiagnosticError, the text untouched).
 */
export function applyPasses(
  text: string,
  path: string,
  passes: readonly PassSpec[],
  opts: RunOptions = {},
): { text: string; outcomes: PassOutcome[]; warnings: Diagnostic[] } {
  let current = text;
  const outcomes: PassOutcome[] = [];
  const warnings: Diagnostic[] = [];
  for (const pass of passes) {
    const module = parseModule(current, path, { defines: opts.defines });
    const rules = passRules(pass, opts);
    const a = analyze(module, pass.entry, rules.extra, rules.analyze);
    const findings = readFindings(a.result, a.table, module.source);
    const errors = findings.filter((d) => d.severity === 'error');
    if (errors.length > 0) throw new DiagnosticError(errors);
    for (const d of findings) warnings.push(d);
    const edits = readEdits(a.result);
    if (editCount(edits) === 0) {
      outcomes.push({ pass: pass.name, applied: 0 });
      continue;
    }
    const r = rewrite(module, a.table, edits);
    current = r.text;
    outcomes.push({ pass: pass.name, applied: r.applied });
  }
  return { text: current, outcomes, warnings: sortDiagnostics(warnings) };
}

/** Audits a file against each pass's contract rules; returns the findings, sorted. */
export function auditText(text: string, path: string, passes: readonly PassSpec[], opts: RunOptions = {}): Diagnostic[] {
  const module = parseModule(text, path, { defines: opts.defines });
  const out: Diagnostic[] = [];
  for (const pass of passes) {
    const rules = passRules(pass, opts);
    const a = analyze(module, pass.audit, rules.extra, rules.analyze);
    for (const d of withInsertionFixes(a, readFindings(a.result, a.table, module.source))) out.push(d);
  }
  return sortDiagnostics(out);
}

/** Adds, to findings at a statement where the rules derive insertions, the inserted text as the fix. */
function withInsertionFixes(a: Analysis, findings: Diagnostic[]): Diagnostic[] {
  const edits = readEdits(a.result);
  const byStart = new Map<number, string[]>();
  for (const e of [...edits.insertAfter].sort((x, y) => x.ord - y.ord)) {
    const anchor = a.table.get(e.stmt);
    if (!anchor || !('span' in anchor)) continue;
    const line = printStmt(markerStmt(e, a.table, anchor.span.end, a.module.source)).trim();
    const list = byStart.get(anchor.span.start) ?? [];
    list.push(line);
    byStart.set(anchor.span.start, list);
  }
  for (const d of findings) {
    if (d.fix || !d.location) continue;
    const lines = byStart.get(d.location.start);
    if (lines) d.fix = `insert after it: ${lines.join('; ')}`;
  }
  return findings;
}
