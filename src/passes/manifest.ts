/**
 * A contract's manifest: `rules/<contract>/contract.toml` names the contract, its place in the
 * pipeline and its entry rule files. The registry reads every manifest; no TypeScript names a
 * contract.
 *
 *   name = "insert-comm-fence"      # the --pass name
 *   order = 30                      # apply runs contracts in ascending order
 *   summary = "InsertCommFence: ..."
 *   apply = "insert_comm_fence.dl"  # derives the edits (relative to the manifest's folder);
 *                                   # optional: a lint-only contract has no edits
 *   audit = "comm_contract.dl"      # derives the findings (includes `apply`)
 *   views = ["graph"]               # views it provides the relations of (optional)
 *
 *   [explain]                       # optional
 *   show = ["insert_after"]         # relations `explain` lists at a line (default: insert_call)
 *   probes = ['insert_after($s, 0, "fence", 0, 0)']  # why-not probes ($s: the statement's id, _: any value)
 *
 *   [verify]                        # optional: how `ptolog verify` exercises and judges it
 *   programs = ["comm"]             # generated program families (default: comm, calling the ops its rules name)
 *   models = ["memory"]             # the independent models that judge its output (default: none)
 */
import { join } from 'node:path';
import { DiagnosticError } from '../report/diagnostic.js';
import { SourceText } from '../report/source.js';
import { parseTomlDoc } from './toml-doc.js';

/** A contract as its manifest declares it; rule paths are relative to the rules directory. */
export interface ContractManifest {
  name: string;
  order: number;
  summary: string;
  /** Rule file deriving the contract's edits (the audit file for a lint-only contract). */
  entry: string;
  /** False for a lint-only contract (no `apply` file): `apply` does not run it. */
  edits: boolean;
  /** Rule file deriving the contract's audit findings (includes `entry`). */
  audit: string;
  /** Views whose relations the contract's audit rules derive (`graph`). */
  views: string[];
  /** Relations `explain` lists at a line, anchored at their first number column. */
  explainShow: string[];
  /** Why-not probes of `explain` for a statement with nothing derived: tuple text, `$s` the statement's id. */
  explainProbes: string[];
  /** The program families `verify` generates for it (VERIFY_PROGRAMS; default `comm`). */
  verifyPrograms: VerifyProgram[];
  /** The independent models `verify` judges its output by (VERIFY_MODELS; default none). */
  verifyModels: VerifyModel[];
  /** The manifest's text and where its keys are, to locate an error found later (a bad probe). */
  site: ManifestSite;
}

/** A manifest's text, and the offsets of its `show` and `probes` entries (same order as the lists). */
export interface ManifestSite {
  source: SourceText;
  showAt: number[];
  probeAt: number[];
  /** Offset of a top-level key (`apply`, `audit`, `name`, ...): 0 when absent. */
  keyAt: (key: string) => number;
}

/** A `manifest` error located at `offset` of the manifest. */
export function manifestError(site: ManifestSite, offset: number, message: string, fix?: string): DiagnosticError {
  return new DiagnosticError([
    {
      severity: 'error',
      code: 'manifest',
      message,
      location: { source: site.source, start: offset, end: offset + 1 },
      ...(fix ? { fix } : {}),
    },
  ]);
}

const KEYS = ['name', 'order', 'summary', 'apply', 'audit', 'views', 'explain', 'verify'] as const;
const EXPLAIN_KEYS = ['show', 'probes'] as const;
const VERIFY_KEYS = ['programs', 'models'] as const;
/**
 * The program families `verify` can generate: communication kernels, orchestration fan-outs,
 * scopes declaring a GM cache policy, random syntactic stress programs.
 */
export const VERIFY_PROGRAMS = ['comm', 'orchestration', 'cache', 'random'] as const;
export type VerifyProgram = (typeof VERIFY_PROGRAMS)[number];
/**
 * The verifier's independent models (written from the contracts' semantics, not from the rules):
 * `memory` (no stale read in the output, and audit reports every race of the input),
 * `task-order` (the same order between launched tasks through barriers), `cache-stamps` (the
 * declarations' errors and each load's stamp by the precedence rules).
 */
export const VERIFY_MODELS = ['memory', 'task-order', 'cache-stamps'] as const;
export type VerifyModel = (typeof VERIFY_MODELS)[number];
/** The views ptolog can draw from a contract's relations. */
export const VIEWS = ['graph'] as const;

function fail(source: SourceText, offset: number, message: string): never {
  throw new DiagnosticError([{ severity: 'error', code: 'manifest', message, location: { source, start: offset, end: offset + 1 } }]);
}

/** The offset of `key = ...` in the manifest text (0 when absent). */
function keyAt(text: string, key: string): number {
  const m = new RegExp(`^\\s*${key}\\s*=`, 'm').exec(text);
  return m ? m.index + m[0].search(/\S/) : 0;
}

/** The offsets of the list `key`'s strings (each where its text is written, else the key's). */
function itemsAt(text: string, key: string, items: readonly string[]): number[] {
  const base = keyAt(text, key);
  let from = base;
  return items.map((x) => {
    const i = text.indexOf(x, from);
    if (i < 0) return base;
    from = i + x.length;
    return i - 1; // the opening quote
  });
}

/** Parses the manifest at `path` (folder `folder` relative to the rules directory); located `manifest` errors. */
export function parseManifest(path: string, folder: string, text: string): ContractManifest {
  const source = new SourceText(path, text);
  const doc = parseTomlDoc(source, (offset, message) => fail(source, offset, message));
  for (const key of Object.keys(doc)) {
    if (!(KEYS as readonly string[]).includes(key))
      fail(source, keyAt(text, key), `unknown manifest key '${key}'; the keys are ${KEYS.join(', ')}`);
  }
  const str = (key: string): string => {
    const v = doc[key];
    if (typeof v !== 'string' || v === '') fail(source, keyAt(text, key), `'${key}' must be a non-empty string`);
    return v;
  };
  const order = doc['order'];
  if (typeof order !== 'number' || !Number.isInteger(order)) fail(source, keyAt(text, 'order'), "'order' must be an integer");
  const name = str('name');
  if (!/^[a-z][a-z0-9-]*$/.test(name)) fail(source, keyAt(text, 'name'), `contract name '${name}' must be lower-case words joined by '-'`);
  const file = (key: string): string => {
    const f = str(key);
    if (f.includes('..') || f.startsWith('/'))
      fail(source, keyAt(text, key), `'${key}' must name a rule file inside the contract's folder`);
    return folder === '' ? f : join(folder, f);
  };
  const strings = (v: unknown, key: string, check: (x: string) => string | null): string[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) fail(source, keyAt(text, key), `'${key}' must be a list of strings`);
    for (const x of v as string[]) {
      const why = check(x);
      if (why) fail(source, keyAt(text, key), why);
    }
    return v as string[];
  };
  const views = strings(doc['views'], 'views', (x) =>
    (VIEWS as readonly string[]).includes(x) ? null : `unknown view '${x}'; the views are ${VIEWS.join(', ')}`,
  );
  const explain = doc['explain'] ?? {};
  if (typeof explain !== 'object' || explain === null || Array.isArray(explain))
    fail(source, keyAt(text, 'explain'), "'explain' must be a table ([explain])");
  const ex = explain as Record<string, unknown>;
  for (const key of Object.keys(ex)) {
    if (!(EXPLAIN_KEYS as readonly string[]).includes(key))
      fail(source, keyAt(text, key), `unknown [explain] key '${key}'; the keys are ${EXPLAIN_KEYS.join(', ')}`);
  }
  const explainShow = strings(ex['show'], 'show', (x) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(x) ? null : `'${x}' is not a relation name`));
  const explainProbes = strings(ex['probes'], 'probes', (x) =>
    /^[A-Za-z_][A-Za-z0-9_]*\(.*\$s.*\)$/.test(x)
      ? null
      : `probe '${x}' must be a tuple like rel($s, 0, "x") naming the statement as $s (_ for any value)`,
  );
  const verify = doc['verify'] ?? {};
  if (typeof verify !== 'object' || verify === null || Array.isArray(verify))
    fail(source, keyAt(text, 'verify'), "'verify' must be a table ([verify])");
  const ve = verify as Record<string, unknown>;
  for (const key of Object.keys(ve)) {
    if (!(VERIFY_KEYS as readonly string[]).includes(key))
      fail(source, keyAt(text, key), `unknown [verify] key '${key}'; the keys are ${VERIFY_KEYS.join(', ')}`);
  }
  const oneOf = (known: readonly string[], what: string) => (x: string) =>
    known.includes(x) ? null : `unknown ${what} '${x}'; the ${what}s are ${known.join(', ')}`;
  const programs = strings(ve['programs'], 'programs', oneOf(VERIFY_PROGRAMS, 'program family')) as VerifyProgram[];
  const models = strings(ve['models'], 'models', oneOf(VERIFY_MODELS, 'model')) as VerifyModel[];
  const audit = file('audit');
  const edits = doc['apply'] !== undefined;
  const site: ManifestSite = {
    source,
    showAt: itemsAt(text, 'show', explainShow),
    probeAt: itemsAt(text, 'probes', explainProbes),
    keyAt: (k) => keyAt(text, k),
  };
  return {
    name,
    order,
    summary: str('summary'),
    entry: edits ? file('apply') : audit,
    edits,
    audit,
    views,
    explainShow,
    explainProbes,
    verifyPrograms: programs.length > 0 ? programs : ['comm'],
    verifyModels: models,
    site,
  };
}
