/**
 * The work done for one kernel file by `audit` and `apply`, as plain data in and out, so it runs
 * the same in the main thread and in a worker thread.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { applyOverrides } from '../config/apply.js';
import type { SeverityOverride } from '../config/config.js';
import type { ModuleReader } from '../frontend/index.js';
import { parseDefines } from '../frontend/index.js';
import type { AuditStage } from '../passes/analyze.js';
import { readExtraRules } from '../passes/extra-rules.js';
import type { OtherFile } from '../passes/pipeline.js';
import { type PassSpec, passByName } from '../passes/registry.js';
import type { RuleSession } from '../passes/rule-session.js';
import { checkRulesRoot } from '../passes/rules-root.js';
import { type Diagnostic, DiagnosticError } from '../report/diagnostic.js';
import { SourceText } from '../report/source.js';
import { toWire, type WireBundle } from '../report/wire.js';
import { unifiedPatch } from '../runner/diff.js';
import { fileModuleReader } from '../runner/module-reader.js';
import { Runner } from '../runner/runner.js';
import { applySuppressions } from '../suppress/suppress.js';
import { fullCollection } from './collect.js';
import { interruptedWrites, readSource, type SourceEncoding, type SourceFile, writeAtomic } from './files.js';
import { codesKnownTo } from './known-codes.js';
import { evaluationBounds } from './limits.js';

/** What to do with one file. */
export interface FileTask {
  command: 'audit' | 'apply';
  /** The path shown in diagnostics (for stdin, the --stdin-filename). */
  file: string;
  /** The text when it comes from standard input (then nothing is written). */
  stdinText?: string;
  /** How standard input's bytes were decoded (default utf8). */
  stdinEncoding?: SourceEncoding;
  passes: string[];
  rules: string[];
  include: string[];
  defines: string[];
  /** Directories searched for imported modules after the file's folder (absolute). */
  importRoots?: string[];
  severity: Record<string, SeverityOverride>;
  /** Codes dropped in this file (per-file-ignores). */
  ignoredCodes: string[];
  reportUnusedIgnores: boolean;
  /** An edited copy of the shipped rules/ used in its place (absolute). */
  rulesRoot?: string;
  /** Evaluation bounds (--max-tuples, --timeout in seconds, counted from the task's start). */
  maxTuples?: number;
  timeout?: number;
  /** audit only: the stage the file is judged at (default pipeline). */
  stage?: AuditStage;
  /** apply only: print the result, write it, or print a diff. */
  mode?: 'print' | 'write' | 'diff';
  /**
   * apply: texts that stand for files (absolute path → text), read in place of the file itself
   * and of the helper modules it imports (the files other tasks of the run patched so far).
   */
  overlay?: Record<string, string>;
}

/** The outcome of a FileTask. */
export interface FileResult {
  /** Findings and warnings (after suppressions and configuration). */
  report: WireBundle;
  /**
   * Set when the file, or part of it, could not be read (exit 2): the located errors. A program
   * or function with errors is left untouched; the rest of the file is still audited and
   * rewritten (`output` / `changed` are then set too).
   */
  fatal?: WireBundle;
  /** apply: the text to print (result or diff). */
  output?: string;
  /** The encoding `output` is printed in: the file's (Latin-1 text prints one byte per character). */
  encoding?: SourceEncoding;
  /** apply: edits applied and whether the text changed. */
  applied?: number;
  changed?: boolean;
  /**
   * apply: the helper files (imported inline helpers judged as inlined into this file) whose
   * markers the run inserted, with their text before and after (their diffs follow the file's
   * with `--diff`; printed after it, or written with `--write`, by settleHelperFiles' caller).
   */
  others?: OtherFile[];
  /** The rule programs the task loaded (none when an earlier task of its thread had): read from the cache, compiled from source. */
  rules?: { read: number; compiled: number };
}

/** Drops and re-grades one file's findings by its configuration and suppression comments. */
function filter(ds: readonly Diagnostic[], source: SourceText, t: FileTask, extraFiles: readonly string[]): Diagnostic[] {
  const graded = applyOverrides(ds, t.severity, new Set(t.ignoredCodes));
  // Known codes are read from the rule files only when a suppression comment names one.
  const known = (): Set<string> => codesKnownTo(t.rulesRoot, t.rules, extraFiles);
  let out = applySuppressions(graded, source, { knownCodes: known, reportUnused: t.reportUnusedIgnores }).diagnostics;
  // Findings in a helper file (an imported helper judged as inlined here): that file's suppression comments.
  const others = new Map<string, SourceText>();
  for (const d of out) if (d.location && d.location.source.path !== source.path) others.set(d.location.source.path, d.location.source);
  for (const src of others.values()) out = applySuppressions(out, src, { reportUnused: false }).diagnostics;
  return out;
}

/**
 * The path a diff header names: relative to the root of the git repository holding the file
 * (where `git apply` applies it), else to the working directory (`patch -p1`); a file outside
 * both keeps its absolute path without the leading `/` (apply from `/`).
 */
export function diffPath(file: string, cwd: string): string {
  const abs = resolve(cwd, file);
  const inside = (base: string): string | undefined => {
    const rel = relative(base, abs);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : undefined;
  };
  const root = repositoryRoot(dirname(abs));
  const rel = (root !== undefined ? inside(root) : undefined) ?? inside(cwd) ?? abs.replace(/^[/\\]+/, '');
  return rel.split(sep).join('/');
}

function repositoryRoot(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** A unified diff whose headers `git apply` (from the repository root) and `patch -p1` (from the working directory) accept. */
export function unifiedDiff(file: string, before: string, after: string): string {
  return unifiedPatch(diffPath(file, process.cwd()), before, after);
}

/** `reader` reading the texts of `overlay` (absolute path → text) in place of those files. */
function overlaid(reader: ModuleReader, overlay: FileTask['overlay']): ModuleReader {
  if (!overlay) return reader;
  return { roots: reader.roots, read: (p) => overlay[resolve(p)] ?? reader.read(p) };
}

/** Runs one FileTask; never throws for a user-facing failure (it is returned as `fatal`). */
export function runFileTask(t: FileTask, session: RuleSession): FileResult {
  const before = session.loadCounts();
  const result = runTask(t, session);
  const after = session.loadCounts();
  const rules = { read: after.read - before.read, compiled: after.compiled - before.compiled };
  return rules.read + rules.compiled > 0 ? { ...result, rules } : result;
}

function runTask(t: FileTask, session: RuleSession): FileResult {
  try {
    const passes = t.passes.map((n) => passByName(n, t.rules)).filter((p): p is PassSpec => p !== undefined);
    const root = t.rulesRoot === undefined ? undefined : checkRulesRoot(t.rulesRoot, passes);
    const runner = new Runner({
      passes,
      defines: parseDefines(t.defines),
      extras: readExtraRules(t.rules, passes),
      includeDirs: t.include,
      ...evaluationBounds(t),
      ...(root !== undefined ? { rulesRoot: root } : {}),
      ...(t.stage !== undefined ? { stage: t.stage } : {}),
      session,
      memory: { kind: 'stream', collect: fullCollection() },
      modules: overlaid(fileModuleReader(t.importRoots ?? []), t.overlay),
    });
    const extraFiles = (runner.config.extras ?? []).map((x) => x.path);
    const over = t.overlay?.[resolve(t.file)];
    const src: SourceFile =
      t.stdinText !== undefined
        ? { text: t.stdinText, encoding: t.stdinEncoding ?? 'utf8' }
        : over !== undefined
          ? { text: over, encoding: 'utf8' }
          : readSource(t.file);
    const source = new SourceText(t.file, src.text);
    if (t.command === 'audit') {
      const r = runner.audit(src.text, t.file);
      const found = [...runner.defineWarnings(src.text, t.file), ...r.findings];
      const report = toWire(filter(found, source, t, extraFiles));
      return r.readErrors.length > 0 ? { report, fatal: toWire(r.readErrors) } : { report };
    }
    const r = runner.apply(src.text, t.file);
    const report = toWire(filter([...runner.defineWarnings(src.text, t.file), ...r.warnings], source, t, extraFiles));
    const partial = r.errors.length > 0 ? { fatal: toWire(r.errors) } : {};
    const applied = r.outcomes.reduce((n, o) => n + o.applied, 0);
    const changed = r.text !== src.text;
    const others = r.others.length > 0 ? { others: r.others } : {};
    if (t.mode === 'write') {
      // Also when nothing changes: the file itself may be the partial copy of an interrupted write.
      const left = interruptedWrites(t.file);
      if (left.length > 0) {
        throw new DiagnosticError([
          {
            severity: 'error',
            code: 'write-failed',
            path: t.file,
            message: `an earlier write of ${t.file} was interrupted; ${left.join(', ')} holds its complete result. Check ${t.file}, then remove that file (or move it over ${t.file}).`,
          },
        ]);
      }
    }
    if (t.mode === 'write' && (changed || r.others.length > 0)) {
      // (The helper files are written by the caller, once every task that patches them has run: settleHelperFiles.)
      if (changed) writeAtomic(t.file, r.text, src.encoding);
      return { report, applied, changed, ...others, ...partial };
    }
    const encoding = src.encoding;
    if (t.mode === 'diff') {
      const diffs = [changed ? unifiedDiff(t.file, src.text, r.text) : '', ...r.others.map((o) => unifiedDiff(o.file, o.before, o.after))];
      return { report, applied, changed, output: diffs.join(''), encoding, ...others, ...partial };
    }
    return { report, applied, changed, output: t.mode === 'write' ? '' : r.text, encoding, ...others, ...partial };
  } catch (e) {
    if (e instanceof DiagnosticError) return { report: { diagnostics: [], sources: {} }, fatal: toWire(e.diagnostics) };
    throw e;
  }
}
