/**
 * ptolog's configuration: `[tool.ptolog]` in `pyproject.toml` or the top level of
 * `ptolog.toml`, found from a file's directory upwards. Reading files is the caller's (a
 * `ConfigReader`), so the CLI and an editor server can share this.
 */
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { AUDIT_STAGES, type AuditStage } from '../passes/analyze.js';
import { PASSES, passByName } from '../passes/registry.js';
import { type Diagnostic, DiagnosticError, type Location, type Severity } from '../report/diagnostic.js';
import { SourceText } from '../report/source.js';
import { closestName } from '../report/suggest.js';

/** Reads a file's text, or undefined when there is none (or it cannot be read). */
export type ConfigReader = (absPath: string) => string | undefined;

/** A severity override: a code's findings become this severity, or are dropped (`off`). */
export type SeverityOverride = Severity | 'off';

/** The settings of one configuration file, paths resolved against its directory. */
export interface PtologConfig {
  /** The configuration file (`.../pyproject.toml` or `.../ptolog.toml`). */
  path: string;
  /** Its directory: relative paths and globs in it are relative to this. */
  root: string;
  passes?: string[];
  /** Extra rule directories or files (like `--rules`). */
  rules: string[];
  /** Directories searched for `#include`s of extra rule files. */
  include: string[];
  /** `-D` definitions, `NAME = value` (an integer, or a list of integers, or a string such as "[16, 64]"). */
  defines: string[];
  severity: Record<string, SeverityOverride>;
  /** Globs (relative to root) of files and directories never read; replaces the default list. */
  exclude: string[];
  /** Directories searched for the modules a kernel file imports helpers from (`import-roots`). */
  importRoots: string[];
  /** Globs added to `exclude`. */
  extendExclude: string[];
  /** Glob → codes dropped in the files it matches. */
  perFileIgnores: Record<string, string[]>;
  failOn?: Severity;
  maxWarnings?: number;
  /** The stage `audit` judges files at (`stage = "as-written"`; default pipeline). */
  stage?: AuditStage;
  /** Where each diagnostic code named in `severity` and `per-file-ignores` is written (see unknownConfigCodes). */
  codeRefs?: CodeRef[];
}

/** A diagnostic code named in the configuration, located. */
export interface CodeRef {
  code: string;
  /** The key it is under: `severity` or `per-file-ignores`. */
  key: string;
  location: Location;
}

/** Files and directories never read unless `exclude` replaces this list. */
export const DEFAULT_EXCLUDE: readonly string[] = [
  '.git',
  '.hg',
  '.venv',
  'venv',
  '__pycache__',
  'node_modules',
  'build',
  'dist',
  '.tox',
  '.mypy_cache',
];

type Check = (v: unknown) => string | undefined;

const isStrings: Check = (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? undefined : 'a list of strings');
const SEVERITIES = ['error', 'warning', 'note'];

const KEYS: Record<string, Check> = {
  passes: isStrings,
  rules: isStrings,
  include: isStrings,
  exclude: isStrings,
  'extend-exclude': isStrings,
  'import-roots': isStrings,
  defines: (v) =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every(
      (x) =>
        typeof x === 'string' ||
        typeof x === 'number' ||
        typeof x === 'bigint' ||
        (Array.isArray(x) && x.every((y) => typeof y === 'number' || typeof y === 'bigint')),
    )
      ? undefined
      : 'a table of NAME = integer, list of integers or string',
  severity: (v) =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every((x) => typeof x === 'string' && [...SEVERITIES, 'off'].includes(x))
      ? undefined
      : 'a table of code = "error" | "warning" | "note" | "off"',
  'per-file-ignores': (v) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => isStrings(x) === undefined)
      ? undefined
      : 'a table of glob = [codes]',
  'fail-on': (v) => (typeof v === 'string' && SEVERITIES.includes(v) ? undefined : '"error", "warning" or "note"'),
  stage: (v) =>
    typeof v === 'string' && (AUDIT_STAGES as readonly string[]).includes(v) ? undefined : AUDIT_STAGES.map((s) => `"${s}"`).join(' or '),
  'max-warnings': (v) =>
    (typeof v === 'number' || typeof v === 'bigint') && Number(v) >= 0 && Number.isInteger(Number(v))
      ? undefined
      : 'a non-negative integer',
};

/** The keys a configuration table may hold. */
export const CONFIG_KEYS: readonly string[] = Object.keys(KEYS);

/** The 1-based line and column where `key` is set inside table `table` ('' = top level). */
function keyOffset(text: string, table: string, key: string): number {
  const lines = text.split('\n');
  let current = '';
  let offset = 0;
  let tableStart = -1;
  const esc = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const keyRe = new RegExp(`^\\s*(?:${esc}|"${esc}"|'${esc}')\\s*[=.]`);
  for (const line of lines) {
    const h = /^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$/.exec(line);
    if (h) {
      current = h[1]!.replace(/\s+/g, '').replace(/"/g, '');
      if (current === table) tableStart = offset;
      // `[tool.ptolog.severity]` sets the key `severity` of `tool.ptolog`.
      if (table !== '' && current === `${table}.${key}`) return offset;
    } else if (current === table && keyRe.test(line)) return offset + line.search(/\S/);
    offset += line.length + 1;
  }
  return Math.max(0, tableStart);
}

function configError(source: SourceText, offset: number, message: string, fix?: string): DiagnosticError {
  const d: Diagnostic = { severity: 'error', code: 'config', message, location: { source, start: offset, end: offset + 1 } };
  if (fix) d.fix = fix;
  return new DiagnosticError([d]);
}

/**
 * Parses a configuration file's text. For `pyproject.toml` only the `[tool.ptolog]` table is
 * read (undefined when it has none); for `ptolog.toml`, the whole file. A TOML syntax error,
 * an unknown key or a value of the wrong type is a located `config` error (DiagnosticError).
 */
export function parseConfig(path: string, text: string): PtologConfig | undefined {
  const source = new SourceText(path, text);
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) {
      const first = e.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
      throw configError(source, source.lineStart(e.line) + e.column - 1, `invalid TOML: ${first}`);
    }
    throw e;
  }
  const isPyproject = path.endsWith('pyproject.toml');
  let table: unknown = doc;
  const tableName = isPyproject ? 'tool.ptolog' : '';
  if (isPyproject) {
    const tool = doc['tool'];
    table = typeof tool === 'object' && tool !== null ? (tool as Record<string, unknown>)['ptolog'] : undefined;
    if (table === undefined) return undefined;
  }
  if (typeof table !== 'object' || table === null || Array.isArray(table)) {
    throw configError(source, keyOffset(text, 'tool', 'ptolog'), '[tool.ptolog] must be a table');
  }
  const t = table as Record<string, unknown>;
  for (const [key, value] of Object.entries(t)) {
    const check = KEYS[key];
    if (!check) {
      const near = closestName(key, CONFIG_KEYS);
      throw configError(
        source,
        keyOffset(text, tableName, key),
        `unknown key '${key}'${near ? ` — did you mean '${near}'?` : ''}`,
        `the keys are ${CONFIG_KEYS.join(', ')}.`,
      );
    }
    const want = check(value);
    if (want) throw configError(source, keyOffset(text, tableName, key), `'${key}' must be ${want}`);
  }
  for (const name of (t['passes'] as string[] | undefined) ?? []) {
    if (passByName(name)) continue;
    const near = closestName(
      name,
      PASSES.map((p) => p.name),
    );
    throw configError(
      source,
      keyOffset(text, tableName, 'passes'),
      `unknown pass '${name}'${near ? ` — did you mean '${near}'?` : ''}`,
      `the passes are ${PASSES.map((p) => p.name).join(', ')}.`,
    );
  }
  const root = dirname(resolve(path));
  const abs = (p: string): string => (isAbsolute(p) ? p : join(root, p));
  const strs = (k: string): string[] => (t[k] as string[] | undefined) ?? [];
  const defines = Object.entries((t['defines'] as Record<string, unknown> | undefined) ?? {}).map(
    ([n, v]) => `${n}=${Array.isArray(v) ? `[${v.map(String).join(',')}]` : String(v)}`,
  );
  const cfg: PtologConfig = {
    path,
    root,
    rules: strs('rules').map(abs),
    include: strs('include').map(abs),
    defines,
    severity: (t['severity'] as Record<string, SeverityOverride> | undefined) ?? {},
    exclude: t['exclude'] !== undefined ? strs('exclude') : [...DEFAULT_EXCLUDE],
    extendExclude: strs('extend-exclude'),
    importRoots: strs('import-roots').map(abs),
    perFileIgnores: (t['per-file-ignores'] as Record<string, string[]> | undefined) ?? {},
  };
  cfg.codeRefs = codeRefs(source, tableName, cfg);
  if (t['passes'] !== undefined) cfg.passes = strs('passes');
  if (t['fail-on'] !== undefined) cfg.failOn = t['fail-on'] as Severity;
  if (t['max-warnings'] !== undefined) cfg.maxWarnings = Number(t['max-warnings']);
  if (t['stage'] !== undefined) cfg.stage = t['stage'] as AuditStage;
  return cfg;
}

/** Locates the codes of `severity` and `per-file-ignores` (the first mention after the key). */
function codeRefs(source: SourceText, tableName: string, cfg: PtologConfig): CodeRef[] {
  const text = source.text;
  const out: CodeRef[] = [];
  const find = (key: string, code: string): number => {
    const from = keyOffset(text, tableName, key);
    const esc = code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const re = new RegExp(`(?<![\\w-])${esc}(?![\\w-])`, 'g');
    re.lastIndex = from;
    return re.exec(text)?.index ?? from;
  };
  for (const code of Object.keys(cfg.severity)) {
    const at = find('severity', code);
    out.push({ code, key: 'severity', location: { source, start: at, end: at + code.length } });
  }
  for (const codes of Object.values(cfg.perFileIgnores)) {
    for (const code of codes) {
      const at = find('per-file-ignores', code);
      out.push({ code, key: 'per-file-ignores', location: { source, start: at, end: at + code.length } });
    }
  }
  return out;
}

/**
 * A warning for each code the configuration names that is not in `known` (a typo would
 * otherwise silently override or drop nothing), with the closest known code.
 */
export function unknownConfigCodes(cfg: PtologConfig, known: ReadonlySet<string>): Diagnostic[] {
  return (cfg.codeRefs ?? [])
    .filter((r) => !known.has(r.code))
    .map((r) => {
      const near = closestName(r.code, known);
      return {
        severity: 'warning',
        code: 'unknown-config-code',
        location: r.location,
        message: `unknown code '${r.code}' in ${r.key} (it has no effect)${near ? ` — did you mean '${near}'?` : ''}`,
        fix: '`ptolog rules` lists the codes.',
      };
    });
}

/**
 * The configuration that applies to files in `startDir`: the nearest `ptolog.toml`, or
 * `pyproject.toml` holding a `[tool.ptolog]` table, in `startDir` or a parent directory
 * (in one directory `ptolog.toml` wins). A `pyproject.toml` without the table is skipped.
 * Undefined when there is none. Throws DiagnosticError for a malformed one.
 */
export function loadConfig(startDir: string, readFile: ConfigReader): PtologConfig | undefined {
  let dir = resolve(startDir);
  for (;;) {
    for (const name of ['ptolog.toml', 'pyproject.toml']) {
      const p = join(dir, name);
      const text = readFile(p);
      if (text === undefined) continue;
      const cfg = parseConfig(p, text);
      if (cfg) return cfg;
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * The package roots of the project holding `file`: the folder of the nearest `pyproject.toml`
 * (upwards from the file), its `src/` or `python/` folder when the file is under one, and the
 * folders its packaging names (`[tool.setuptools.packages.find] where`, `[tool.setuptools]
 * package-dir`, `[tool.scikit-build] wheel.packages`). Empty without a pyproject.toml.
 */
export function packageRoots(file: string, readFile: ConfigReader): string[] {
  let dir = dirname(resolve(file));
  for (;;) {
    const p = join(dir, 'pyproject.toml');
    const text = readFile(p);
    if (text !== undefined) {
      const out = [dir];
      for (const sub of ['src', 'python']) if (resolve(file).startsWith(`${join(dir, sub)}/`)) out.push(join(dir, sub));
      let doc: Record<string, unknown> = {};
      try {
        doc = parse(text) as Record<string, unknown>;
      } catch {
        return out; // (a malformed pyproject.toml is reported where it is read as configuration)
      }
      const at = (...keys: string[]): unknown =>
        keys.reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined), doc);
      const strings = (v: unknown): string[] =>
        Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
      for (const w of strings(at('tool', 'setuptools', 'packages', 'find', 'where'))) out.push(join(dir, w));
      const pd = at('tool', 'setuptools', 'package-dir');
      if (typeof pd === 'object' && pd !== null) for (const v of Object.values(pd)) if (typeof v === 'string') out.push(join(dir, v));
      for (const w of strings(at('tool', 'scikit-build', 'wheel', 'packages'))) out.push(dirname(join(dir, w)));
      return [...new Set(out)];
    }
    const up = dirname(dir);
    if (up === dir) return [];
    dir = up;
  }
}

/** Reads the configuration file at `path` (for `--config`); a file without settings is an error. */
export function loadConfigFile(path: string, readFile: ConfigReader): PtologConfig {
  const text = readFile(resolve(path));
  if (text === undefined) {
    throw new DiagnosticError([{ severity: 'error', code: 'config', path, message: `cannot read the configuration file ${path}.` }]);
  }
  const cfg = parseConfig(path, text);
  if (!cfg) {
    throw new DiagnosticError([{ severity: 'error', code: 'config', path, message: `${path} has no [tool.ptolog] table.` }]);
  }
  return cfg;
}
