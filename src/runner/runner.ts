/**
 * The runner: the one place that runs the contracts over a text for every front end (the CLI and
 * its workers, the language server and its thread, the playground's worker, `ptolog test`,
 * `verify`). Built once from one immutable configuration (passes, rules, defines, stage, limits,
 * the reader of imported modules, the memory policy); it audits and applies a text, answers "the
 * edits at this finding" and explains a line. The per-pass loop and the audit-stage composition
 * are src/passes/pipeline.ts, which only the runner drives.
 */

import type { FunctionMemo } from '../frontend/function-memo.js';
import { type LazySizes, type ModuleReader, parseModuleIsolated, unknownDefines } from '../frontend/index.js';
import type { ConstValue, FunctionDef, Module, Program } from '../ir/nodes.js';
import { type Analysis, type AuditStage, analyze, type CollectMoment } from '../passes/analyze.js';
import { explainLine } from '../passes/explain.js';
import type { ExtraRuleFile } from '../passes/extra-rules.js';
import {
  type AuditOutcome,
  applyPasses,
  auditSteps,
  type OtherFile,
  type PassOutcome,
  passRules,
  type RunOptions,
} from '../passes/pipeline.js';
import type { PassSpec } from '../passes/registry.js';
import { RuleSession } from '../passes/rule-session.js';
import { type Diagnostic, DiagnosticError } from '../report/diagnostic.js';
import { fixAt, fixableStarts } from './edits-at.js';

/**
 * How a run holds a file's tree: `tree` (the editor, the playground: each text parsed once, the
 * whole tree shared by the passes), `stream` (the CLI: the same below STREAM_FROM_CHARS
 * characters; a larger file read with a streaming parse, its tree never whole, evaluation's
 * arrays from an arena, `collect` called where memory has just become garbage).
 */
export type MemoryPolicy =
  | { kind: 'tree' }
  | {
      kind: 'stream';
      /** A full garbage collection at the moments the library names (AnalyzeOptions.collect). */
      collect?: (moment: CollectMoment) => void;
      /** Which blocks are read lazily (tests set them small; giving them always streams). */
      lazyBlocks?: LazySizes;
    };

/** Everything a runner is built from (frozen when the runner is built). */
export interface RunnerConfig {
  /** The contracts, in pipeline order. */
  passes: readonly PassSpec[];
  /** Extra rule files (`--rules`), read. */
  extras?: readonly ExtraRuleFile[];
  /** Module constants given on the command line (`-D`). */
  defines?: ReadonlyMap<string, ConstValue>;
  /** The stage `audit` judges a text at (default `pipeline`); apply ignores it. */
  stage?: AuditStage;
  /** An edited copy of the shipped rules used in their place (`--rules-root`). */
  rulesRoot?: string;
  /** Directories searched for an extra rule file's `#include` not found beside it. */
  includeDirs?: readonly string[];
  /** Evaluation bounds: tuples per relation, seconds per evaluation. */
  maxTuples?: number;
  timeoutSeconds?: number;
  /** Reads the project's other modules for the helpers a file imports; absent: imports are not followed. */
  modules?: ModuleReader;
  /** Default `{ kind: 'stream' }`. */
  memory?: MemoryPolicy;
  /** Where loaded (and compiled) rule programs are kept; default one for this runner. */
  session?: RuleSession;
}

/** What one call adds to the configuration. */
export interface RunScope {
  /** Evaluation stops with an EvaluationTimeout past this `performance.now()` value. */
  deadline?: number;
  /** Only the programs it accepts (by their index in the module) are analysed. */
  programs?: (p: Program, index: number) => boolean;
  /** Of those, only the functions it accepts (by program index and function name: the editor's units). */
  functions?: (p: Program, index: number, f: FunctionDef) => boolean;
  /** How many characters the chosen programs and functions span (the evaluation's arena is reserved for them). */
  analysedChars?: number;
  /** The text's module as `parse` gave it (not parsed again). */
  parsed?: Module;
}

/** What `apply` gives: the text, the edits per pass, warnings and the errors that left parts untouched. */
export interface ApplyOutcome {
  text: string;
  outcomes: PassOutcome[];
  warnings: Diagnostic[];
  errors: Diagnostic[];
  /** The helper files the run patched (imported helpers judged as inlined into this file). */
  others: OtherFile[];
}

/** Runs the contracts of one configuration over texts (see the file comment). */
export class Runner {
  readonly config: Readonly<RunnerConfig>;
  readonly session: RuleSession;
  private readonly options: RunOptions;

  constructor(config: RunnerConfig) {
    this.session = config.session ?? new RuleSession();
    this.config = Object.freeze({ ...config, session: this.session });
    const memory = config.memory ?? { kind: 'stream' };
    this.options = {
      ...(config.defines ? { defines: config.defines } : {}),
      ...(config.extras ? { extras: config.extras } : {}),
      ...(config.includeDirs ? { includeDirs: config.includeDirs } : {}),
      ...(config.rulesRoot !== undefined ? { rulesRoot: config.rulesRoot } : {}),
      ...(config.maxTuples !== undefined ? { maxTuples: config.maxTuples } : {}),
      ...(config.timeoutSeconds !== undefined ? { timeoutSeconds: config.timeoutSeconds } : {}),
      ...(config.stage !== undefined ? { stage: config.stage } : {}),
      ...(config.modules ? { modules: config.modules } : {}),
      memory: memory.kind,
      ...(memory.kind === 'stream' && memory.collect ? { collect: memory.collect } : {}),
      ...(memory.kind === 'stream' && memory.lazyBlocks ? { lazyBlocks: memory.lazyBlocks } : {}),
      session: this.session,
    };
  }

  /** A runner of this configuration with `changes` (the same rule session). */
  with(changes: Partial<RunnerConfig>): Runner {
    return new Runner({ ...this.config, ...changes, session: this.session });
  }

  /** The contracts run. */
  get passes(): readonly PassSpec[] {
    return this.config.passes;
  }

  /** The run options of one call (for the pipeline, and `verify`'s analyses). */
  runOptions(scope: RunScope = {}): RunOptions {
    const programs = scope.programs;
    return {
      ...this.options,
      ...(scope.deadline !== undefined ? { deadline: scope.deadline } : {}),
      ...(programs ? { programs: (p: Program, i: number) => programs(p, i) } : {}),
      ...(scope.functions ? { functions: scope.functions } : {}),
      ...(scope.analysedChars !== undefined ? { analysedChars: scope.analysedChars } : {}),
      ...(scope.parsed ? { parsed: scope.parsed } : {}),
    };
  }

  /**
   * The whole module of `text` as a run reads it (defines, imported helpers); `read`, when given,
   * is told of each imported module read and what was read (its text, null, or an error);
   * `functions`: the functions an earlier parse of the document read (reused where unchanged).
   */
  parse(
    text: string,
    path: string,
    read?: (path: string, got: ReturnType<ModuleReader['read']>) => void,
    functions?: FunctionMemo,
  ): Module {
    const modules = this.config.modules;
    const reader: ModuleReader | undefined =
      modules && read
        ? {
            roots: modules.roots,
            read: (p) => {
              const got = modules.read(p);
              read(p, got);
              return got;
            },
          }
        : modules;
    return parseModuleIsolated(text, path, {
      ...(this.config.defines ? { defines: this.config.defines } : {}),
      ...(reader ? { modules: reader } : {}),
      ...(functions ? { blocks: { functions } } : {}),
    });
  }

  /** The warnings for `-D` names the text (its module `parsed`, when given) defines nowhere. */
  defineWarnings(text: string, path: string, parsed?: Module): Diagnostic[] {
    const defines = this.config.defines;
    if (!defines || defines.size === 0) return [];
    const m = parsed ?? parseModuleIsolated(text, path, { defines });
    return unknownDefines(text, path, defines, m.constants);
  }

  /** Audits `text` (findings sorted, each once; read errors apart; each finding's pass). */
  audit(text: string, path: string, scope: RunScope = {}): AuditOutcome {
    const steps = this.auditSteps(text, path, scope);
    for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
  }

  /** audit step by step: yields each pass's name before it runs (a stale audit is dropped by not resuming it). */
  auditSteps(text: string, path: string, scope: RunScope = {}): Generator<string, AuditOutcome, void> {
    return auditSteps(text, path, this.passes, this.runOptions(scope));
  }

  /** Applies the passes in order to `text` (throws DiagnosticError when an error stops the whole file). */
  apply(text: string, path: string, scope: RunScope = {}): ApplyOutcome {
    return applyPasses(text, path, this.passes, this.runOptions(scope));
  }

  /** The text `apply` gives, or undefined when it refuses the whole file. */
  applied(text: string, path: string): string | undefined {
    try {
      return this.apply(text, path).text;
    } catch (e) {
      if (e instanceof DiagnosticError) return undefined;
      throw e;
    }
  }

  /** The analysis of `module` by `pass`'s rules (`audit`: its audit rules, else its apply rules), the whole tree kept. */
  analyze(module: Module, pass: PassSpec, which: 'audit' | 'apply', deadline?: number): Analysis {
    const rules = passRules(pass, { ...this.options, ...(deadline !== undefined ? { deadline } : {}) });
    const o = which === 'apply' ? { ...rules.analyze, stage: 'pipeline' as const } : rules.analyze;
    return analyze(module, which === 'audit' ? pass.audit : pass.entry, rules.extra, o);
  }

  /**
   * The text after only the edits pass `passName` derives at the node starting at offset `start`
   * (a quick fix): undefined when there are none there or the text has errors.
   */
  fixAt(text: string, path: string, passName: string, start: number): string | undefined {
    const pass = this.passes.find((p) => p.name === passName);
    if (!pass) return undefined;
    return fixAt(
      () => this.parse(text, path),
      (m) => this.analyze(m, pass, 'apply'),
      start,
    );
  }

  /** The offsets at which pass `passName` derives a quick fix on `text` (none when it has errors). */
  fixableStarts(text: string, path: string, passName: string): Set<number> {
    const pass = this.passes.find((p) => p.name === passName);
    if (!pass) return new Set();
    return fixableStarts(
      () => this.parse(text, path),
      (m) => this.analyze(m, pass, 'apply'),
    );
  }

  /**
   * What `ptolog explain FILE:LINE` prints for 1-based `line`, per pass (the whole module
   * analysed): the derived tuples with their proofs. A text that does not read gives its errors.
   */
  explain(text: string, path: string, line: number): string {
    try {
      const module = this.parse(text, path);
      const errors = (module.problems ?? []).filter((d) => d.severity === 'error');
      if (errors.length > 0) return errors.map((d) => d.message).join('\n');
      const out: string[] = [];
      for (const pass of this.passes) out.push(`== ${pass.name}`, explainLine(this.analyze(module, pass, 'audit'), line, pass));
      return out.join('\n');
    } catch (e) {
      if (e instanceof DiagnosticError) return e.diagnostics.map((d) => d.message).join('\n');
      throw e;
    }
  }
}
