import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { ignoredCodes } from '../config/apply.js';
import { DEFAULT_EXCLUDE, loadConfig, loadConfigFile, type PtologConfig, packageRoots, unknownConfigCodes } from '../config/config.js';
import type { AuditStage } from '../passes/analyze.js';
import type { Diagnostic, Severity } from '../report/diagnostic.js';
import type { FileTask } from './file-task.js';
import { codesKnownTo } from './known-codes.js';
import { selectPasses } from './passes.js';
import type { WalkOptions } from './targets.js';

/** The options every kernel command shares that configuration can also set. */
export interface SharedOpts {
  pass: string[];
  rules: string[];
  define: string[];
  /** `--import-root DIR`: directories searched for imported modules (project-imports.ts). */
  importRoot?: string[];
  config?: string;
  isolated?: boolean;
  exclude: string[];
  failOn?: Severity;
  maxWarnings?: number;
  reportUnusedIgnores?: boolean;
  /** `--rules-root DIR`: an edited copy of the shipped rules/ used in its place. */
  rulesRoot?: string;
  /** `-I DIR`: directories searched for `#include`s of rule files, before the configured ones. */
  includePath?: string[];
  /** `--max-tuples N`, `--timeout S`: evaluation bounds. */
  maxTuples?: number;
  timeout?: number;
  /** audit `--stage` / `--as-written`. */
  stage?: AuditStage;
  asWritten?: boolean;
}

const readIfFile = (p: string): string | undefined => {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
};

/** Finds the configuration of each file (or the one of --config, or none with --isolated), caching per directory. */
export class Settings {
  private readonly byDir = new Map<string, PtologConfig | undefined>();
  private readonly fixed: PtologConfig | undefined;

  constructor(
    private readonly o: SharedOpts,
    private readonly cwd: string,
  ) {
    this.fixed = o.config !== undefined && !o.isolated ? loadConfigFile(o.config, readIfFile) : undefined;
  }

  /**
   * Warnings about the configuration files the run used: codes in `severity` and
   * `per-file-ignores` that no loaded catalog or rule file declares (once per file).
   */
  warnings(): Diagnostic[] {
    const configs = new Map<string, PtologConfig>();
    for (const c of [this.fixed, ...this.byDir.values()]) if (c) configs.set(c.path, c);
    return [...configs.values()].flatMap((c) =>
      (c.codeRefs ?? []).length === 0 ? [] : unknownConfigCodes(c, codesKnownTo(this.o.rulesRoot, [...c.rules, ...this.o.rules])),
    );
  }

  /** The configuration that applies to `file` (a path, or a directory for `dirOf = false`). */
  configFor(path: string, isDir = false): PtologConfig | undefined {
    if (this.o.isolated) return undefined;
    if (this.fixed) return this.fixed;
    const dir = resolve(this.cwd, isDir ? path : dirname(path));
    if (!this.byDir.has(dir)) this.byDir.set(dir, loadConfig(dir, readIfFile));
    return this.byDir.get(dir);
  }

  /** The configuration of the working directory (thresholds, walking). */
  get top(): PtologConfig | undefined {
    return this.configFor(this.cwd, true);
  }

  /** How directories and globs are walked: the top configuration's excludes plus --exclude. */
  walkOptions(): WalkOptions {
    const c = this.top;
    return {
      exclude: [...(c?.exclude ?? DEFAULT_EXCLUDE), ...(c?.extendExclude ?? []), ...this.o.exclude],
      excludeRoot: c?.root ?? this.cwd,
    };
  }

  /** --fail-on, else the configuration's, else warning. */
  get failOn(): Severity {
    return this.o.failOn ?? this.top?.failOn ?? 'warning';
  }

  /** --max-warnings, else the configuration's. */
  get maxWarnings(): number | undefined {
    return this.o.maxWarnings ?? this.top?.maxWarnings;
  }

  /** The task for one file: configuration first, command-line flags added or overriding. */
  task(command: FileTask['command'], file: string, extra: Partial<FileTask> = {}): FileTask {
    const c = this.configFor(file);
    const passNames = this.o.pass.length > 0 ? this.o.pass : (c?.passes ?? []);
    const rules = [...(c?.rules ?? []), ...this.o.rules];
    return {
      command,
      file,
      passes: selectPasses(passNames, rules).map((p) => p.name),
      rules,
      include: [...(this.o.includePath ?? []).map((d) => resolve(this.cwd, d)), ...(c?.include ?? [])],
      defines: [...(c?.defines ?? []), ...this.o.define],
      // (Relative to the working directory when inside it: notes name them as the user gave the file.)
      importRoots: [
        ...new Set(
          [
            ...packageRoots(resolve(this.cwd, file), readIfFile),
            ...(c?.importRoots ?? []),
            ...(this.o.importRoot ?? []).map((d) => resolve(this.cwd, d)),
          ].map((d) => {
            const r = relative(this.cwd, d);
            return r === '' ? '.' : r.startsWith('..') || isAbsolute(r) ? d : r;
          }),
        ),
      ],
      severity: c?.severity ?? {},
      ignoredCodes: c ? [...ignoredCodes(c, resolve(this.cwd, file))] : [],
      reportUnusedIgnores: this.o.reportUnusedIgnores === true,
      ...(this.o.rulesRoot !== undefined ? { rulesRoot: resolve(this.cwd, this.o.rulesRoot) } : {}),
      ...(this.o.maxTuples !== undefined ? { maxTuples: this.o.maxTuples } : {}),
      ...(this.o.timeout !== undefined ? { timeout: this.o.timeout } : {}),
      stage: this.o.stage ?? (this.o.asWritten ? 'as-written' : (c?.stage ?? 'pipeline')),
      ...extra,
    };
  }
}
