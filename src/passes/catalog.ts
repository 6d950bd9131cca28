/**
 * The diagnostic catalog: every code is declared once, in a `diagnostics.toml` — `rules/` for
 * ptolog's own codes, `rules/<contract>/` beside the contract's manifest, or beside a user's
 * `--rules` file:
 *
 *   [missing-marker]
 *   severity = "note"              # error | warning | note (as reported at the default stage)
 *   stages = { as-written = "warning" }  # optional: the severity at a stage where it differs
 *   summary = "one line"
 *   help = """longer text"""       # optional for a user's code
 *   example = """a snippet"""      # optional for a user's code; reports the code
 *   ok = """a snippet"""           # optional: the same done right; does not report it
 *
 * An example is run by test/passes/catalog-examples.test.ts: a Python file is audited, a rule
 * file checked, unless its first line says how (`# ptolog audit --as-written`, `// ptolog run
 * --max-tuples 1000 -D -`; `{file}` stands for the example); a `ptolog ...` command line is shown only.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DiagnosticError, type Severity } from '../report/diagnostic.js';
import { SourceText } from '../report/source.js';
import { AUDIT_STAGES, type AuditStage } from './audit-stage.js';
import { parseTomlDoc } from './toml-doc.js';

/** One declared diagnostic code. */
export interface CatalogEntry {
  code: string;
  severity: Severity;
  /** The contract's name, or `ptolog` for ptolog's own codes. */
  contract: string;
  summary: string;
  help: string;
  example: string;
  /** The example done right (`ok`): it does not report the code ('' when none). */
  ok: string;
  /** The catalog file declaring it. */
  path: string;
  /** The severity at an audit stage where it differs from `severity` (the default stage's). */
  stages: Partial<Record<AuditStage, Severity>>;
}

/** Codes by name. */
export type Catalog = ReadonlyMap<string, CatalogEntry>;

/** The catalog file's name. */
export const CATALOG_FILE = 'diagnostics.toml';

const KEYS = ['severity', 'stages', 'summary', 'help', 'example', 'ok', 'contract'] as const;
const SEVERITIES: readonly string[] = ['error', 'warning', 'note'];

function fail(source: SourceText, offset: number, message: string): never {
  throw new DiagnosticError([{ severity: 'error', code: 'catalog', message, location: { source, start: offset, end: offset + 1 } }]);
}

/** The offset of `[code]`, or of `key = ...` after it (0 when absent). */
function offsetOf(text: string, code: string, key?: string): number {
  const esc = code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const table = new RegExp(`^\\s*\\[\\s*"?${esc}"?\\s*\\]`, 'm').exec(text);
  if (!table) return 0;
  const at = table.index + table[0].search(/\S/);
  if (key === undefined) return at;
  const rest = text.slice(at);
  const k = new RegExp(`^\\s*${key}\\s*=`, 'm').exec(rest);
  return k ? at + k.index + k[0].search(/\S/) : at;
}

/** Parses one catalog file; `contract` is the default contract of its codes. Located `catalog` errors. */
export function parseCatalog(path: string, text: string, contract: string): CatalogEntry[] {
  const source = new SourceText(path, text);
  const doc = parseTomlDoc(source, (offset, message) => fail(source, offset, message));
  const out: CatalogEntry[] = [];
  for (const [code, value] of Object.entries(doc)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      fail(source, offsetOf(text, code), `'${code}' must be a table [${code}] with severity and summary`);
    }
    const t = value as Record<string, unknown>;
    for (const key of Object.keys(t)) {
      if (!(KEYS as readonly string[]).includes(key))
        fail(source, offsetOf(text, code, key), `unknown key '${key}' in [${code}]; the keys are ${KEYS.join(', ')}`);
    }
    const str = (key: string, required: boolean): string => {
      const v = t[key];
      if (v === undefined && !required) return '';
      if (typeof v !== 'string' || v.trim() === '')
        fail(source, offsetOf(text, code, key), `'${key}' of [${code}] must be a non-empty string`);
      return v.trim();
    };
    const severity = str('severity', true);
    if (!SEVERITIES.includes(severity))
      fail(source, offsetOf(text, code, 'severity'), `"${severity}" is not a severity; write "error", "warning" or "note"`);
    const stages: Partial<Record<AuditStage, Severity>> = {};
    const st = t['stages'];
    if (st !== undefined) {
      if (typeof st !== 'object' || st === null || Array.isArray(st))
        fail(source, offsetOf(text, code, 'stages'), `'stages' of [${code}] must be a table like { as-written = "warning" }`);
      for (const [stage, sev] of Object.entries(st)) {
        if (!(AUDIT_STAGES as readonly string[]).includes(stage))
          fail(
            source,
            offsetOf(text, code, 'stages'),
            `unknown audit stage '${stage}' in [${code}]; the stages are ${AUDIT_STAGES.join(', ')}`,
          );
        if (typeof sev !== 'string' || !SEVERITIES.includes(sev))
          fail(source, offsetOf(text, code, 'stages'), `${JSON.stringify(sev)} is not a severity; write "error", "warning" or "note"`);
        if (sev !== severity) stages[stage as AuditStage] = sev as Severity;
      }
    }
    const summary = str('summary', true);
    if (summary.includes('\n')) fail(source, offsetOf(text, code, 'summary'), `'summary' of [${code}] must be one line`);
    out.push({
      code,
      severity: severity as Severity,
      contract: str('contract', false) || contract,
      summary,
      help: str('help', false) || summary,
      example: str('example', false),
      ok: str('ok', false),
      path,
      stages,
    });
  }
  return out;
}

/** The contract name a catalog in `dir` defaults to: its `contract.toml`'s name, else `fallback`. */
function contractOf(dir: string, fallback: string): string {
  try {
    const m = /^\s*name\s*=\s*"([^"]+)"/m.exec(readFileSync(join(dir, 'contract.toml'), 'utf8'));
    return m ? m[1]! : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The catalog files of the rules directory `root` (its `diagnostics.toml`, each folder's) and of
 * the folders of `extraRuleFiles`, each with the contract its codes default to (whether it exists or not).
 */
export function catalogFiles(root: string, extraRuleFiles: readonly string[] = []): [path: string, contract: string][] {
  const files: [string, string][] = [[join(root, CATALOG_FILE), 'ptolog']];
  let folders: string[] = [];
  try {
    folders = readdirSync(root).sort();
  } catch {
    folders = [];
  }
  for (const f of folders) files.push([join(root, f, CATALOG_FILE), contractOf(join(root, f), f)]);
  for (const x of extraRuleFiles) files.push([join(dirname(x), CATALOG_FILE), contractOf(dirname(x), 'user')]);
  return files;
}

/**
 * A catalog file parsed when the package was built (scripts/prebuilt-catalog.mjs): its text,
 * the contract its codes default to, and its entries (without `path`, the file's where it is read).
 */
export interface PrebuiltCatalog {
  text: string;
  contract: string;
  entries: Omit<CatalogEntry, 'path'>[];
}

/** Where the build stores the shipped catalog files parsed: dist/catalog.json, one level above dist/bundle/ and dist/passes/. */
function prebuiltPath(): string {
  return join(fileURLToPath(new URL('..', import.meta.url)), 'catalog.json');
}

/**
 * The catalog files parsed when the package was built (none when run from the sources, or when
 * the file is missing or not of this shape). A file is only used in place of parsing when its
 * text and default contract are those read (loadCatalog), so an edited catalog is parsed again.
 */
export function prebuiltCatalogs(path: string = prebuiltPath()): PrebuiltCatalog[] {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as { format?: unknown; files?: unknown };
    if (data.format !== 1 || !Array.isArray(data.files)) return [];
    return (data.files as unknown[]).filter(
      (f): f is PrebuiltCatalog =>
        typeof f === 'object' &&
        f !== null &&
        typeof (f as PrebuiltCatalog).text === 'string' &&
        typeof (f as PrebuiltCatalog).contract === 'string' &&
        Array.isArray((f as PrebuiltCatalog).entries),
    );
  } catch {
    return [];
  }
}

/** The entries of one catalog file: the prebuilt ones when its text and contract are among `prebuilt`'s, else parsed. */
function entriesOf(path: string, text: string, contract: string, prebuilt: readonly PrebuiltCatalog[]): CatalogEntry[] {
  const built = prebuilt.find((p) => p.text === text && p.contract === contract);
  if (!built) return parseCatalog(path, text, contract);
  return built.entries.map((e) => ({
    code: e.code,
    severity: e.severity,
    contract: e.contract,
    summary: e.summary,
    help: e.help,
    example: e.example,
    ok: e.ok,
    path,
    stages: { ...e.stages },
  }));
}

/**
 * The catalog of the rules directory `root` (its `diagnostics.toml` and each contract folder's)
 * and of the folders of `extraRuleFiles` (a `diagnostics.toml` beside a user's rule file).
 * A code declared twice is a located `catalog` error. A file whose text is among `prebuilt`
 * (default: the build's, prebuiltCatalogs) is not parsed again.
 */
export function loadCatalog(
  root: string,
  extraRuleFiles: readonly string[] = [],
  prebuilt: readonly PrebuiltCatalog[] = prebuiltCatalogs(),
): Map<string, CatalogEntry> {
  const out = new Map<string, CatalogEntry>();
  const read = new Set<string>();
  for (const [path, contract] of catalogFiles(root, extraRuleFiles)) {
    if (read.has(resolve(path)) || !existsSync(path)) continue;
    read.add(resolve(path));
    const text = readFileSync(path, 'utf8');
    for (const e of entriesOf(path, text, contract, prebuilt)) {
      const before = out.get(e.code);
      if (before) {
        const source = new SourceText(path, text);
        const at = offsetOf(text, e.code);
        throw new DiagnosticError([
          {
            severity: 'error',
            code: 'catalog',
            message: `the code '${e.code}' is declared twice (first in ${before.path})`,
            location: { source, start: at, end: at + 1 },
          },
        ]);
      }
      out.set(e.code, e);
    }
  }
  return out;
}

/**
 * The catalog for a run: the rules directory `root` plus a `diagnostics.toml` in each `--rules`
 * directory or beside each `--rules` file (unreadable paths are skipped: loading the rules reports them).
 */
export function catalogForRules(root: string, rulePaths: readonly string[]): Map<string, CatalogEntry> {
  const files = rulePaths.map((p) => {
    try {
      return statSync(p).isDirectory() ? join(p, CATALOG_FILE) : p;
    } catch {
      return p;
    }
  });
  return loadCatalog(root, files);
}
