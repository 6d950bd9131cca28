/**
 * The editor's settings (`ptolog.passes`, `ptolog.stage`, `ptolog.rules`, `ptolog.defines`, read
 * with `workspace/configuration`) laid over a document's settings (the command line's, completed
 * by its pyproject.toml): given passes replace the others, a stage replaces it, rule paths are
 * added after, defines override.
 */
import { isAbsolute, resolve } from 'node:path';
import { parseDefines } from '../frontend/index.js';
import { AUDIT_STAGES, type AuditStage } from '../passes/analyze.js';
import { contractsWith } from '../passes/registry.js';
import { DiagnosticError } from '../report/diagnostic.js';
import type { LspSettings } from './settings.js';

/** The editor's settings, as read and checked. */
export interface ClientSettings {
  passes: string[];
  stage?: AuditStage;
  rules: string[];
  defines: string[];
}

export const NO_CLIENT_SETTINGS: ClientSettings = { passes: [], rules: [], defines: [] };

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : []);

/** The editor's `ptolog` section as ClientSettings, with a message for each value that is not understood. */
export function readClientSettings(raw: unknown): { settings: ClientSettings; problems: string[] } {
  const problems: string[] = [];
  if (raw === null || raw === undefined || typeof raw !== 'object') return { settings: NO_CLIENT_SETTINGS, problems };
  const r = raw as Record<string, unknown>;
  const settings: ClientSettings = { passes: strings(r['passes']), rules: strings(r['rules']), defines: strings(r['defines']) };
  const stage = r['stage'];
  if (typeof stage === 'string' && stage !== '' && stage !== 'default') {
    if ((AUDIT_STAGES as readonly string[]).includes(stage)) settings.stage = stage as AuditStage;
    else problems.push(`ptolog.stage: "${stage}" is not a stage; the stages are ${AUDIT_STAGES.join(', ')}`);
  }
  try {
    parseDefines(settings.defines);
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    problems.push(`ptolog.defines: ${e.diagnostics.map((d) => d.message).join('; ')}`);
    settings.defines = [];
  }
  return { settings, problems };
}

/** `base` with the editor's settings `c` laid over it (relative rule paths against `root`); unknown pass names are reported. */
export function withClientSettings(base: LspSettings, c: ClientSettings, root: string): { settings: LspSettings; problems: string[] } {
  if (c.passes.length === 0 && c.rules.length === 0 && c.defines.length === 0 && c.stage === undefined)
    return { settings: base, problems: [] };
  const problems: string[] = [];
  const ruleDirs = [...base.ruleDirs, ...c.rules.map((r) => (isAbsolute(r) ? r : resolve(root, r)))];
  let passes = base.passes;
  if (c.passes.length > 0) {
    const all = contractsWith(ruleDirs);
    const unknown = c.passes.filter((n) => !all.some((p) => p.name === n));
    if (unknown.length > 0)
      problems.push(`ptolog.passes: unknown pass ${unknown.join(', ')}; the passes are ${all.map((p) => p.name).join(', ')}`);
    const chosen = all.filter((p) => c.passes.includes(p.name));
    if (chosen.length > 0) passes = chosen;
  } else if (c.rules.length > 0) {
    // Contract folders among the editor's rule paths are passes too (as with --rules).
    const names = new Set(base.passes.map((p) => p.name));
    const before = new Set(contractsWith(base.ruleDirs).map((p) => p.name));
    passes = contractsWith(ruleDirs).filter((p) => names.has(p.name) || !before.has(p.name));
  }
  const defines = new Map([...base.defines, ...parseDefines(c.defines)]);
  const stage = c.stage ?? base.stage;
  return { settings: { passes, ruleDirs, defines, ...(stage !== undefined ? { stage } : {}) }, problems };
}
