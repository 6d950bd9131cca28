/**
 * The analysis the playground runs (in its worker): the same library stages the CLI runs —
 * audit, apply (as a diff), explain, graph, facts — on one kernel text and extra rules.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { parseModule } from '../../src/frontend/index.js';
import { analyze, loadRules, type Analysis } from '../../src/passes/analyze.js';
import { RuleSession } from '../../src/passes/rule-session.js';
import { readFindings } from '../../src/passes/findings.js';
import { applyPasses } from '../../src/passes/pipeline.js';
import { explainLine } from '../../src/passes/explain.js';
import { fanoutDot } from '../../src/passes/graph.js';
import { extrasFor, readExtraRules } from '../../src/passes/extra-rules.js';
import { PASSES } from '../../src/passes/registry.js';
import { extractFacts } from '../../src/facts/extract.js';
import { MemorySink } from '../../src/facts/sink.js';
import { DiagnosticError, type Diagnostic } from '../../src/report/diagnostic.js';
import { renderDiagnostics } from '../../src/report/text.js';
import { setVirtualFile } from './shims/fs.js';
import type { FactTable, Finding, Response, TextChange } from './protocol.js';
import { textChanges } from './changes.js';
import { fixableStarts, fixOne } from './fix-one.js';

/** Where the user's extra rules live: beside the shipped ones, so `#include "../insert_comm_fence/insert_comm_fence.dl"` works. */
export const EXTRA_RULES_PATH = '/rules/playground/extra.dl';
const KERNEL_PATH = 'kernel.py';

/** A file path as the page shows it: relative to the virtual root (no leading `/`). */
export function displayPath(path: string): string {
  return path.replace(/^\/+/, '');
}

/** Rendered diagnostics with every path spelled as the page shows it. */
function rendered(ds: Diagnostic[]): string {
  return renderDiagnostics(ds).replace(/(^|\s)\/(rules\/)/gm, '$1$2');
}

function toFinding(d: Diagnostic, pass = ''): Finding {
  const loc = d.location;
  const p = loc?.source.position(loc.start) ?? { line: 1, col: 1 };
  const file = displayPath(loc?.source.path ?? d.path ?? KERNEL_PATH);
  // Located in the kernel, in the rules editor's file, or (no place on the page) in a shipped rule file.
  const located = loc !== undefined && (file === KERNEL_PATH || file === displayPath(EXTRA_RULES_PATH));
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    file,
    from: located ? loc.start : 0,
    to: located ? loc.end : 0,
    line: p.line,
    col: p.col,
    ...(d.fix ? { fix: d.fix } : {}),
    pass,
    fixable: false,
    inRules: located && file !== KERNEL_PATH,
  };
}

/** A playground session: remembers the last analyses for explain requests and the last rules text. */
export class PlaygroundAnalyzer {
  private analyses: Analysis[] = [];
  private rules: string | undefined;
  /** The rule programs loaded in this page (rule paths shown from the virtual root). */
  private readonly session = new RuleSession('/');

  /**
   * Audits (as PyPTO's Default pipeline compiles the kernel, or as written), applies, graphs and
   * extracts the facts of `kernel` with `rules` as extra rule file.
   */
  analyze(id: number, kernel: string, rules: string, asWritten = false): Response {
    const t0 = performance.now();
    this.useRules(rules);
    this.analyses = [];
    try {
      const extras = rules.trim() === '' ? [] : readExtraRules([EXTRA_RULES_PATH], PASSES);
      const module = parseModule(kernel, KERNEL_PATH);
      const findings: Finding[] = [];
      for (const pass of PASSES) {
        const a = analyze(module, pass.audit, extrasFor(pass, extras, PASSES, undefined, this.session), { session: this.session, ...(asWritten ? { stage: 'as-written' as const } : {}) });
        this.analyses.push(a);
        const mine = readFindings(a.result, a.table, module.source).map((d) => toFinding(d, pass.name));
        if (mine.length > 0) {
          const starts = fixableStarts(module, extras, this.session, pass.name);
          for (const f of mine) f.fixable = f.file === KERNEL_PATH && starts.has(f.from);
        }
        findings.push(...mine);
      }
      findings.sort((x, y) => x.from - y.from || x.code.localeCompare(y.code));
      let diff: string | undefined;
      let applyError: string | undefined;
      let applyChanges: TextChange[] = [];
      try {
        const applied = applyPasses(kernel, KERNEL_PATH, PASSES, { extras, session: this.session }).text;
        applyChanges = textChanges(kernel, applied);
        diff = applied === kernel ? '' : createTwoFilesPatch(`a/${KERNEL_PATH}`, `b/${KERNEL_PATH}`, kernel, applied, '', '', { context: 3, headerOptions: FILE_HEADERS_ONLY });
      } catch (e) {
        if (!(e instanceof DiagnosticError)) throw e;
        applyError = rendered(e.diagnostics);
      }
      // The graph view of the contract whose manifest declares it.
      const g = PASSES.findIndex((p) => p.views.includes('graph'));
      const dot = g < 0 ? '' : fanoutDot(this.analyses[g]!, false, PASSES[g]!.name);
      return {
        kind: 'analyzed', id, findings, diff, applyChanges, ...(applyError !== undefined ? { applyError } : {}),
        dot, facts: factTables(kernel, this.session), ms: performance.now() - t0,
      };
    } catch (e) {
      if (e instanceof DiagnosticError) {
        return { kind: 'analyzed', id, findings: e.diagnostics.map((d) => toFinding(d)), diff: undefined, applyChanges: [], applyError: rendered(e.diagnostics), dot: '', facts: [], ms: performance.now() - t0 };
      }
      return { kind: 'failed', id, message: e instanceof Error ? e.message : String(e) };
    }
  }

  /** The quick fix of the finding of pass `pass` at offset `start` of `kernel` (rules as last analysed). */
  fix(id: number, kernel: string, rules: string, pass: string, start: number): Response {
    this.useRules(rules);
    const extras = rules.trim() === '' ? [] : readExtraRules([EXTRA_RULES_PATH], PASSES);
    const fixed = fixOne(kernel, KERNEL_PATH, extras, this.session, pass, start);
    return { kind: 'fixed', id, changes: fixed === undefined ? [] : textChanges(kernel, fixed) };
  }

  /** Makes `rules` the extra rule file (the loaded rule programs forgotten when it changed). */
  private useRules(rules: string): void {
    if (rules === this.rules) return;
    setVirtualFile(EXTRA_RULES_PATH, rules.trim() === '' ? undefined : rules);
    this.session.forget();
    this.rules = rules;
  }

  /** `ptolog explain` of 1-based `line` on the last analysed kernel, per pass. */
  explain(id: number, line: number): Response {
    if (this.analyses.length === 0) return { kind: 'explained', id, text: 'No analysis yet (the kernel has errors).' };
    const src = this.analyses[0]!.module.source;
    if (line < 1 || line > src.lineCount) return { kind: 'explained', id, text: '' };
    const text = PASSES.map((p, i) => `== ${p.name}\n${explainLine(this.analyses[i]!, line, p)}`).join('\n');
    return { kind: 'explained', id, text };
  }
}

/** The input facts of the kernel (relations of rules/schema.dl) with their column names. */
function factTables(kernel: string, session: RuleSession): FactTable[] {
  const module = parseModule(kernel, KERNEL_PATH);
  const sink = new MemorySink();
  extractFacts(module, sink);
  const schema = loadRules('schema.dl', [], undefined, [], session).program;
  return schema.relations
    .filter((r) => r.input)
    .map((r) => ({ name: r.name, columns: r.attrs, rows: sink.get(r.name) }));
}
