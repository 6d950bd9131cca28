/**
 * Per-program analysis for the language server: a document's programs are analysed one by one,
 * and a program whose text (and start line, constants, settings and rules) is the same as in
 * the previous analysis of the document reuses that analysis, its findings moved to the
 * program's new offset. So a change re-analyses only the programs it touched (and those after
 * it when it adds or removes lines: findings name lines). The cache is a value the caller keeps
 * per document (no state here).
 */
import { parseModule } from '../frontend/index.js';
import { analyze, type Analysis } from '../passes/analyze.js';
import { readFindings } from '../passes/findings.js';
import { extrasFor, readExtraRules } from '../passes/extra-rules.js';
import { DiagnosticError, type Diagnostic, type Location } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import type { Program } from '../ir/nodes.js';
import type { PassFinding } from './analysis.js';
import type { LspSettings } from './settings.js';
import type { RuleSession } from '../passes/rule-session.js';

/** One program's analysis, as computed on `source` (where the program started at `start`). */
export interface ProgramAudit {
  source: SourceText;
  start: number;
  findings: PassFinding[];
  /** Per pass, the analysis of this program alone (for hover and explain). */
  analyses: Map<string, Analysis>;
}

/** A document's per-program analyses, keyed by what decides them (see `programKey`). */
export type ProgramCache = ReadonlyMap<string, ProgramAudit>;

/** The analysis of a document, program by program. */
export interface ProgramsAudit {
  findings: PassFinding[];
  /** Each program's 1-based line range and its analyses (current offsets for the range). */
  programs: { fromLine: number; toLine: number; analyses: Map<string, Analysis> }[];
  /** The cache to pass to the next analysis of the same document. */
  cache: Map<string, ProgramAudit>;
  /** How many programs were analysed now (the others came from the cache), of how many. */
  analysed: number;
  total: number;
}

const constText = (m: ReadonlyMap<string, unknown> | undefined): string => JSON.stringify(m ? [...m] : []);

/** What decides a program's analysis: settings and rules (`salt`), constants, start line and text. */
function programKey(salt: string, source: SourceText, p: Program, moduleConstants: ReadonlyMap<string, unknown>): string {
  const line = source.position(p.start).line;
  return [salt, constText(moduleConstants), constText(p.constants), String(line), source.text.slice(p.start, p.end)].join('\u0000');
}

/** A location of `from` moved by `delta` into `to` (locations in other files are kept). */
function moved(loc: Location, from: SourceText, to: SourceText, delta: number): Location {
  return loc.source === from ? { source: to, start: loc.start + delta, end: loc.end + delta } : loc;
}

/** A finding computed on `from` as it reads in `to`, where its program moved by `delta` characters. */
function rebase(d: Diagnostic, from: SourceText, to: SourceText, delta: number): Diagnostic {
  if (delta === 0 && from === to) return d;
  const out: Diagnostic = { ...d };
  if (d.location) out.location = moved(d.location, from, to, delta);
  if (d.related) out.related = d.related.map((r) => ({ ...r, location: moved(r.location, from, to, delta) }));
  if (d.fixEdits && d.location?.source === from) out.fixEdits = d.fixEdits.map((e) => ({ ...e, start: e.start + delta, end: e.end + delta }));
  return out;
}

/**
 * Audits a document program by program, reusing `previous` for unchanged programs; yields
 * before each program it analyses (so a caller can let newer edits in and stop early). A
 * document that does not parse gives its errors as findings (pass '').
 */
export function* auditProgramsSteps(
  text: string,
  path: string,
  settings: LspSettings,
  salt: string,
  previous: ProgramCache,
  session: RuleSession,
): Generator<void, ProgramsAudit, void> {
  try {
    return yield* programsSteps(text, path, settings, salt, previous, session);
  } catch (e) {
    // A document that does not read, a rule file that does not load: its errors are the findings.
    if (e instanceof DiagnosticError) {
      return { findings: e.diagnostics.map((d) => ({ pass: '', diagnostic: d })), programs: [], cache: new Map(), analysed: 0, total: 0 };
    }
    throw e;
  }
}

function* programsSteps(
  text: string,
  path: string,
  settings: LspSettings,
  salt: string,
  previous: ProgramCache,
  session: RuleSession,
): Generator<void, ProgramsAudit, void> {
  const cache = new Map<string, ProgramAudit>();
  const module = parseModule(text, path, { defines: settings.defines });
  const source = module.source;
  const extras = readExtraRules(settings.ruleDirs, settings.passes);
  const findings: PassFinding[] = [];
  const programs: ProgramsAudit['programs'] = [];
  let analysed = 0;
  for (const p of module.programs) {
    const key = programKey(salt, source, p, module.constants);
    let audit = previous.get(key);
    if (audit) {
      const delta = p.start - audit.start;
      for (const f of audit.findings) findings.push({ pass: f.pass, diagnostic: rebase(f.diagnostic, audit.source, source, delta) });
    } else {
      const one = { ...module, programs: [p] };
      const mine: PassFinding[] = [];
      const analyses = new Map<string, Analysis>();
      for (const pass of settings.passes) {
        yield;
        const a = analyze(one, pass.audit, extrasFor(pass, extras, settings.passes, undefined, session), { session, ...(settings.stage !== undefined ? { stage: settings.stage } : {}) });
        analyses.set(pass.name, a);
        for (const d of readFindings(a.result, a.table, source, { related: true })) mine.push({ pass: pass.name, diagnostic: d });
      }
      analysed++;
      audit = { source, start: p.start, findings: mine, analyses };
      findings.push(...mine);
    }
    cache.set(key, audit);
    programs.push({ fromLine: source.position(p.start).line, toLine: source.position(p.end).line, analyses: audit.analyses });
  }
  return { findings, programs, cache, analysed, total: module.programs.length };
}
