/**
 * The analysis the playground runs (in its worker): the runner every front end uses
 * (src/runner/) — the editor's audit unit by unit, apply (as a diff), a finding's quick fix,
 * explain — plus the graph and facts views, on one kernel text and extra rules.
 */
import { extractFacts } from '../../src/facts/extract.js';
import { MemorySink } from '../../src/facts/sink.js';
import type { Module } from '../../src/ir/nodes.js';
import { loadRules } from '../../src/passes/analyze.js';
import { readExtraRules } from '../../src/passes/extra-rules.js';
import { fanoutDot } from '../../src/passes/graph.js';
import { PASSES } from '../../src/passes/registry.js';
import { RuleSession } from '../../src/passes/rule-session.js';
import { type Diagnostic, DiagnosticError } from '../../src/report/diagnostic.js';
import { renderDiagnostics } from '../../src/report/text.js';
import { unifiedPatch } from '../../src/runner/diff.js';
import { auditUnitsSteps, type ProgramCache } from '../../src/runner/incremental.js';
import { Runner } from '../../src/runner/runner.js';
import { textChanges } from './changes.js';
import type { FactTable, Finding, Response } from './protocol.js';
import { setVirtualFile } from './shims/fs.js';

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

/** One step of an analysis, as the page shows its progress. */
export interface Step {
  done: number;
  total: number;
  what: string;
}

/** A finished analysis: the response, and the runner and text explain reads. */
interface Done {
  response: Omit<Extract<Response, { kind: 'analyzed' }>, 'id' | 'ms' | 'cached' | 'stopped'>;
  runner: Runner;
  kernel: string;
}

/** A small map that forgets its oldest entries past `limit`. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): void {
    this.map.delete(key);
    this.map.set(key, v);
    while (this.map.size > this.limit) this.map.delete(this.map.keys().next().value!);
  }
}

/**
 * A playground session: the loaded rule programs, the units' audits of the last analysis (a
 * program whose text, start line, constants, rules and stage are unchanged is not audited
 * again), a cache of whole analyses (an undo or a toggle back is answered at once), and the last
 * analysis for explain.
 */
export class PlaygroundAnalyzer {
  private last: Done | undefined;
  private rules: string | undefined;
  private units: ProgramCache | undefined;
  private readonly results = new Lru<Done>(16);
  private readonly applied = new Lru<Pick<Done['response'], 'diff' | 'applyChanges' | 'applyError'>>(16);
  private analysedOnce = false;

  /** `session`: the rule programs loaded in this page (default: rule paths shown from the virtual root). */
  constructor(private readonly session: RuleSession = new RuleSession('/')) {}

  /**
   * Audits (as PyPTO's Default pipeline compiles the kernel, or as written), applies, graphs and
   * extracts the facts of `kernel` with `rules` as extra rule file, step by step: yields before
   * each step (the caller shows progress, and may stop a stale analysis by not resuming it).
   */
  *analyzeSteps(id: number, kernel: string, rules: string, asWritten = false): Generator<Step, Response, void> {
    const t0 = performance.now();
    const key = [asWritten ? 'w' : 'p', rules, kernel].join('\u0000');
    const hit = this.results.get(key);
    if (hit) {
      this.last = hit;
      return { ...hit.response, id, ms: performance.now() - t0, cached: true, stopped: 0 };
    }
    try {
      const done = yield* this.steps(kernel, rules, asWritten);
      this.results.set(key, done);
      this.last = done;
      this.analysedOnce = true;
      return { ...done.response, id, ms: performance.now() - t0, cached: false, stopped: 0 };
    } catch (e) {
      this.last = undefined;
      if (e instanceof DiagnosticError) {
        return {
          kind: 'analyzed',
          id,
          findings: e.diagnostics.map((d) => toFinding(d)),
          diff: undefined,
          applyChanges: [],
          applyError: rendered(e.diagnostics),
          dot: '',
          facts: [],
          ms: performance.now() - t0,
          programs: { total: 0, cached: 0 },
          cached: false,
          stopped: 0,
        };
      }
      return { kind: 'failed', id, message: e instanceof Error ? e.message : String(e) };
    }
  }

  /** The runner of `rules` (the extra rule file) and the stage. */
  private runnerOf(rules: string, asWritten: boolean): Runner {
    this.useRules(rules);
    const extras = rules.trim() === '' ? [] : readExtraRules([EXTRA_RULES_PATH], PASSES);
    return new Runner({
      passes: PASSES,
      extras,
      ...(asWritten ? { stage: 'as-written' as const } : {}),
      memory: { kind: 'tree' },
      session: this.session,
    });
  }

  private *steps(kernel: string, rules: string, asWritten: boolean): Generator<Step, Done, void> {
    const compiling = this.analysedOnce ? '' : ' (the first analysis compiles the rules)';
    const runner = this.runnerOf(rules, asWritten);
    const applyKey = `${rules}\u0000${kernel}`;
    const applied = this.applied.get(applyKey);
    // (The number of units is known once the text is read: the bar counts one audit ahead.)
    const rest = (applied ? 0 : 1) + 2;
    let done = 0;
    const audits = auditUnitsSteps(runner, kernel, KERNEL_PATH, asWritten ? 'w' : 'p', this.units);
    let step = audits.next();
    while (!step.done) {
      yield { done: done++, total: done + PASSES.length + rest, what: `${step.value.pass}: audit of ${step.value.unit}${compiling}` };
      step = audits.next();
    }
    const audit = step.value;
    this.units = audit.cache;
    const total = done + rest;
    const findings = audit.findings.map((f) => toFinding(f.diagnostic, f.pass));
    // A finding is fixable where its pass derives a fix at the node it starts at.
    for (const pass of PASSES) {
      if (!findings.some((f) => f.pass === pass.name && f.file === KERNEL_PATH)) continue;
      const starts = runner.fixableStarts(kernel, KERNEL_PATH, pass.name);
      for (const f of findings) if (f.pass === pass.name) f.fixable = f.file === KERNEL_PATH && starts.has(f.from);
    }
    findings.sort((x, y) => x.from - y.from || x.code.localeCompare(y.code));
    let result = applied;
    if (!result) {
      yield { done: done++, total, what: `every pass: apply${compiling}` };
      result = { diff: undefined, applyChanges: [] };
      try {
        // (A program with an error is left as it is; the others are rewritten, as apply does.)
        const r = runner.apply(kernel, KERNEL_PATH);
        result.applyChanges = textChanges(kernel, r.text);
        result.diff = r.text === kernel ? '' : unifiedPatch(KERNEL_PATH, kernel, r.text);
      } catch (e) {
        if (!(e instanceof DiagnosticError)) throw e;
        result.applyError = rendered(e.diagnostics);
      }
      this.applied.set(applyKey, result);
    }
    // The graph view of the contract whose manifest declares it (of the whole module).
    yield { done: done++, total, what: 'graph' };
    const g = PASSES.find((p) => p.views.includes('graph'));
    let dot = '';
    if (g) {
      const module = runner.parse(kernel, KERNEL_PATH);
      if (!(module.problems ?? []).some((d) => d.severity === 'error')) dot = fanoutDot(runner.analyze(module, g, 'audit'), false, g.name);
    }
    yield { done: done++, total, what: 'facts' };
    const facts = factTables(runner.parse(kernel, KERNEL_PATH), this.session);
    return {
      response: {
        kind: 'analyzed',
        findings,
        ...result,
        dot,
        facts,
        programs: { total: audit.total, cached: audit.total - audit.analysed },
      },
      runner,
      kernel,
    };
  }

  /** The quick fix of the finding of pass `pass` at offset `start` of `kernel` (rules as last analysed). */
  fix(id: number, kernel: string, rules: string, pass: string, start: number): Response {
    const fixed = this.runnerOf(rules, false).fixAt(kernel, KERNEL_PATH, pass, start);
    return { kind: 'fixed', id, changes: fixed === undefined ? [] : textChanges(kernel, fixed) };
  }

  /** Makes `rules` the extra rule file (the loaded rule programs forgotten when it changed). */
  private useRules(rules: string): void {
    if (rules === this.rules) return;
    setVirtualFile(EXTRA_RULES_PATH, rules.trim() === '' ? undefined : rules);
    this.session.forget();
    this.units = undefined;
    this.rules = rules;
  }

  /** `ptolog explain` of 1-based `line` on the last analysed kernel, per pass. */
  explain(id: number, line: number): Response {
    const last = this.last;
    if (!last) return { kind: 'explained', id, text: 'No analysis yet (the kernel has errors).' };
    const lines = last.kernel.split('\n').length;
    if (line < 1 || line > lines) return { kind: 'explained', id, text: '' };
    return { kind: 'explained', id, text: last.runner.explain(last.kernel, KERNEL_PATH, line) };
  }
}

/** The input facts of the kernel's module (what of it reads; relations of rules/schema.dl) with their column names. */
function factTables(module: Module, session: RuleSession): FactTable[] {
  const sink = new MemorySink();
  extractFacts(module, sink);
  const schema = loadRules('schema.dl', [], undefined, [], session).program;
  return schema.relations.filter((r) => r.input).map((r) => ({ name: r.name, columns: r.attrs, rows: sink.get(r.name) }));
}
