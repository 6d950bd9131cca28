/**
 * The analysis the playground runs (in its worker): the same library stages the CLI runs —
 * audit, apply (as a diff), explain, graph, facts — on one kernel text and extra rules.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { extractFacts } from '../../src/facts/extract.js';
import { MemorySink } from '../../src/facts/sink.js';
import { parseModule } from '../../src/frontend/index.js';
import { type Analysis, analyze, loadRules } from '../../src/passes/analyze.js';
import { explainLine } from '../../src/passes/explain.js';
import { extrasFor, readExtraRules } from '../../src/passes/extra-rules.js';
import { readFindings } from '../../src/passes/findings.js';
import { fanoutDot } from '../../src/passes/graph.js';
import { applyPasses } from '../../src/passes/pipeline.js';
import { PASSES } from '../../src/passes/registry.js';
import { RuleSession } from '../../src/passes/rule-session.js';
import { type Diagnostic, DiagnosticError } from '../../src/report/diagnostic.js';
import { renderDiagnostics } from '../../src/report/text.js';
import { textChanges } from './changes.js';
import { fixableStarts, fixOne } from './fix-one.js';
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

/** One program's audit: its findings (offsets as when computed, the program then at `start`) and analyses. */
interface ProgramAudit {
  start: number;
  findings: Finding[];
  /** Per pass (PASSES order): the analysis of this program alone (explain, graph). */
  analyses: Analysis[];
}

/** A finished analysis: the response and the per-program analyses explain reads. */
interface Done {
  response: Omit<Extract<Response, { kind: 'analyzed' }>, 'id' | 'ms' | 'cached' | 'stopped'>;
  programs: { fromLine: number; toLine: number; analyses: Analysis[] }[];
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

const constText = (m: ReadonlyMap<string, unknown> | undefined): string => JSON.stringify(m ? [...m] : []);

/**
 * A playground session: the loaded rule programs, a cache of program audits (a program whose
 * text, start line, constants, rules and stage are unchanged is not audited again) and of whole
 * analyses (an undo or a toggle back is answered at once), and the last analyses for explain.
 */
export class PlaygroundAnalyzer {
  private programs: Done['programs'] = [];
  private rules: string | undefined;
  /** The rule programs loaded in this page (rule paths shown from the virtual root). */
  private readonly session = new RuleSession('/');
  private readonly audits = new Lru<ProgramAudit>(64);
  private readonly results = new Lru<Done>(16);
  private readonly applied = new Lru<Pick<Done['response'], 'diff' | 'applyChanges' | 'applyError'>>(16);
  private analysedOnce = false;

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
      this.programs = hit.programs;
      return { ...hit.response, id, ms: performance.now() - t0, cached: true, stopped: 0 };
    }
    try {
      const done = yield* this.steps(kernel, rules, asWritten);
      this.results.set(key, done);
      this.programs = done.programs;
      this.analysedOnce = true;
      return { ...done.response, id, ms: performance.now() - t0, cached: false, stopped: 0 };
    } catch (e) {
      this.programs = [];
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

  private *steps(kernel: string, rules: string, asWritten: boolean): Generator<Step, Done, void> {
    const compiling = this.analysedOnce ? '' : ' (the first analysis compiles the rules)';
    this.useRules(rules);
    const extras = rules.trim() === '' ? [] : readExtraRules([EXTRA_RULES_PATH], PASSES);
    const module = parseModule(kernel, KERNEL_PATH);
    const source = module.source;
    // A module without programs is audited whole (its notes say so).
    const units =
      module.programs.length === 0
        ? [{ module, start: 0, text: kernel, name: 'the module', constants: '' }]
        : module.programs.map((p) => ({
            module: { ...module, programs: [p] },
            start: p.start,
            text: kernel.slice(p.start, p.end),
            name: p.name,
            constants: constText(p.constants),
          }));
    const applyKey = `${rules}\u0000${kernel}`;
    const applied = this.applied.get(applyKey);
    const total = units.length * PASSES.length + (applied ? 0 : PASSES.length) + 2;
    let done = 0;
    const findings: Finding[] = [];
    const programs: Done['programs'] = [];
    let cached = 0;
    for (const u of units) {
      const line = source.position(u.start).line;
      const key = [asWritten ? 'w' : 'p', rules, constText(module.constants), u.constants, String(line), u.text].join('\u0000');
      let audit = this.audits.get(key);
      if (audit) {
        cached++;
        done += PASSES.length;
        const delta = u.start - audit.start;
        for (const f of audit.findings) findings.push(f.file === KERNEL_PATH ? { ...f, from: f.from + delta, to: f.to + delta } : f);
      } else {
        const mine: Finding[] = [];
        const analyses: Analysis[] = [];
        for (const pass of PASSES) {
          yield { done: done++, total, what: `${pass.name}: audit of ${u.name}${compiling}` };
          this.useRules(rules);
          const a = analyze(u.module, pass.audit, extrasFor(pass, extras, PASSES, undefined, this.session), {
            session: this.session,
            ...(asWritten ? { stage: 'as-written' as const } : {}),
          });
          analyses.push(a);
          const found = readFindings(a.result, a.table, source).map((d) => toFinding(d, pass.name));
          if (found.some((f) => f.file === KERNEL_PATH)) {
            const starts = fixableStarts(u.module, extras, this.session, pass.name);
            for (const f of found) f.fixable = f.file === KERNEL_PATH && starts.has(f.from);
          }
          mine.push(...found);
        }
        audit = { start: u.start, findings: mine, analyses };
        findings.push(...mine);
      }
      this.audits.set(key, audit);
      programs.push({ fromLine: line, toLine: source.position(u.start + u.text.length).line, analyses: audit.analyses });
    }
    findings.sort((x, y) => x.from - y.from || x.code.localeCompare(y.code));
    let result = applied;
    if (!result) {
      result = { diff: undefined, applyChanges: [] };
      try {
        // Pass by pass, as apply runs them (each reads the text the one before patched).
        let text = kernel;
        for (const pass of PASSES) {
          yield { done: done++, total, what: `${pass.name}: apply${compiling}` };
          this.useRules(rules);
          text = applyPasses(text, KERNEL_PATH, [pass], { extras, session: this.session }).text;
        }
        result.applyChanges = textChanges(kernel, text);
        result.diff =
          text === kernel
            ? ''
            : createTwoFilesPatch(`a/${KERNEL_PATH}`, `b/${KERNEL_PATH}`, kernel, text, '', '', {
                context: 3,
                headerOptions: FILE_HEADERS_ONLY,
              });
      } catch (e) {
        if (!(e instanceof DiagnosticError)) throw e;
        result.applyError = rendered(e.diagnostics);
      }
      this.applied.set(applyKey, result);
    }
    // The graph view of the contract whose manifest declares it (of the whole module when it has several programs).
    yield { done: done++, total, what: 'graph' };
    const g = PASSES.findIndex((p) => p.views.includes('graph'));
    let dot = '';
    if (g >= 0) {
      const pass = PASSES[g]!;
      const a =
        programs.length === 1
          ? programs[0]!.analyses[g]!
          : analyze(module, pass.audit, extrasFor(pass, extras, PASSES, undefined, this.session), {
              session: this.session,
              ...(asWritten ? { stage: 'as-written' as const } : {}),
            });
      dot = fanoutDot(a, false, pass.name);
    }
    yield { done: done++, total, what: 'facts' };
    const facts = factTables(kernel, this.session);
    return {
      response: {
        kind: 'analyzed',
        findings,
        ...result,
        dot,
        facts,
        programs: { total: module.programs.length, cached: module.programs.length === 0 ? 0 : cached },
      },
      programs,
    };
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

  /** `ptolog explain` of 1-based `line` on the last analysed kernel, per pass (the program holding the line). */
  explain(id: number, line: number): Response {
    if (this.programs.length === 0) return { kind: 'explained', id, text: 'No analysis yet (the kernel has errors).' };
    const p = this.programs.find((q) => line >= q.fromLine && line <= q.toLine) ?? this.programs[0]!;
    const src = p.analyses[0]!.module.source;
    if (line < 1 || line > src.lineCount) return { kind: 'explained', id, text: '' };
    const text = PASSES.map((pass, i) => `== ${pass.name}\n${explainLine(p.analyses[i]!, line, pass)}`).join('\n');
    return { kind: 'explained', id, text };
  }
}

/** The input facts of the kernel (relations of rules/schema.dl) with their column names. */
function factTables(kernel: string, session: RuleSession): FactTable[] {
  const module = parseModule(kernel, KERNEL_PATH);
  const sink = new MemorySink();
  extractFacts(module, sink);
  const schema = loadRules('schema.dl', [], undefined, [], session).program;
  return schema.relations.filter((r) => r.input).map((r) => ({ name: r.name, columns: r.attrs, rows: sink.get(r.name) }));
}
