/**
 * The language server's audit of a document: the CLI's (`auditReport`, the same passes, rules,
 * stage, defines), run unit by unit (analysisUnits: each program with the `@pl.inline` helpers
 * and JIT kernels it calls), so that a unit whose text (and start lines, constants, settings and
 * rules) is the same as in the previous analysis of the document reuses that analysis, its
 * findings moved to the unit's new offsets. A change re-analyses only the units it touched (and
 * those after it when it adds or removes lines: findings name lines); editing a helper
 * re-analyses its callers. The findings are those of `ptolog audit` on the same text. The cache
 * is a value the caller keeps per document (no state here).
 */
import { parseModuleIsolated, unknownDefines } from '../frontend/index.js';
import { readExtraRules } from '../passes/extra-rules.js';
import { sortDiagnostics } from '../passes/findings.js';
import { auditReport, type RunOptions } from '../passes/pipeline.js';
import type { RuleSession } from '../passes/rule-session.js';
import { type Diagnostic, DiagnosticError, type Location } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import type { PassFinding } from './analysis.js';
import type { LspSettings } from './settings.js';
import { analysisUnits, type Piece, programId } from './units.js';

/** One unit's findings, as computed on `source` (where its pieces were at `pieces`). */
export interface UnitAudit {
  source: SourceText;
  pieces: Piece[];
  findings: PassFinding[];
}

/** A document's per-unit analyses, keyed by what decides them (see `unitKey`). */
export type ProgramCache = ReadonlyMap<string, UnitAudit>;

/** The analysis of a document, unit by unit. */
export interface ProgramsAudit {
  /** Sorted as the CLI sorts them, each once. */
  findings: PassFinding[];
  /** The cache to pass to the next analysis of the same document. */
  cache: Map<string, UnitAudit>;
  /** How many units were analysed now (the others came from the cache), of how many. */
  analysed: number;
  total: number;
}

const constText = (m: ReadonlyMap<string, unknown> | undefined): string => JSON.stringify(m ? [...m] : []);

/** What makes two diagnostics the same finding (as the CLI's de-duplication reads them). */
function sameKey(d: Diagnostic): string {
  return [d.severity, d.code, d.message, d.location?.start ?? -1, d.location?.end ?? -1, d.location?.source.path ?? d.path ?? ''].join(
    '\u0000',
  );
}

/** A location of `from` moved into `to`, by the delta of the piece that holds it (other files kept). */
function moved(loc: Location, from: SourceText, to: SourceText, shift: (offset: number) => number): Location {
  if (loc.source !== from) return loc;
  const delta = shift(loc.start);
  return { source: to, start: loc.start + delta, end: loc.end + delta };
}

/** A finding computed on `from` as it reads in `to`, where each piece of its unit moved by its own delta. */
function rebase(d: Diagnostic, from: SourceText, to: SourceText, shift: (offset: number) => number): Diagnostic {
  const out: Diagnostic = { ...d };
  if (d.location) out.location = moved(d.location, from, to, shift);
  if (d.related) out.related = d.related.map((r) => ({ ...r, location: moved(r.location, from, to, shift) }));
  if (d.fixEdits && d.location?.source === from) {
    // (After the finding's statement: moved with it.)
    const delta = shift(d.location.start);
    out.fixEdits = d.fixEdits.map((e) => ({ ...e, start: e.start + delta, end: e.end + delta }));
  }
  return out;
}

/**
 * Audits a document unit by unit, reusing `previous` for unchanged units; yields before each
 * pass of each unit it analyses (so a caller can let newer edits in and stop early). A document
 * whose rule files do not load gives their errors as findings (pass '').
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
    return yield* unitsSteps(text, path, settings, salt, previous, session);
  } catch (e) {
    // A rule file that does not load: its errors are the findings.
    if (e instanceof DiagnosticError) {
      return { findings: e.diagnostics.map((d) => ({ pass: '', diagnostic: d })), cache: new Map(), analysed: 0, total: 0 };
    }
    throw e;
  }
}

function* unitsSteps(
  text: string,
  path: string,
  settings: LspSettings,
  salt: string,
  previous: ProgramCache,
  session: RuleSession,
): Generator<void, ProgramsAudit, void> {
  const cache = new Map<string, UnitAudit>();
  const module = parseModuleIsolated(text, path, { defines: settings.defines });
  const source = module.source;
  const run: RunOptions = {
    defines: settings.defines,
    extras: readExtraRules(settings.ruleDirs, settings.passes),
    session,
    ...(settings.stage !== undefined ? { stage: settings.stage } : {}),
  };
  // What the CLI reports besides the passes' findings: unknown -D names, the module's read errors and warnings.
  const problems = [
    ...(settings.defines.size > 0 ? unknownDefines(text, path, settings.defines, module.constants) : []),
    ...(module.problems ?? []),
  ];
  const problemKeys = new Set(problems.map(sameKey));
  const all: PassFinding[] = problems.map((d) => ({ pass: '', diagnostic: d }));
  // A JIT kernel's name decides how a call to it reads in any program.
  const jitNames = module.programs
    .filter((p) => p.jit)
    .flatMap((p) => p.functions.map((f) => f.name))
    .sort()
    .join(',');
  const units = analysisUnits(source, module.programs);
  let analysed = 0;
  for (const u of units) {
    const key = [
      salt,
      constText(module.constants),
      jitNames,
      ...u.programs.map((p) => constText(p.constants)),
      ...u.pieces.map((x) => `${source.position(x.start).line}\u0001${text.slice(x.start, x.end)}`),
    ].join('\u0000');
    let audit = previous.get(key);
    if (audit) {
      const old = audit;
      const shift = (offset: number): number => {
        const i = old.pieces.findIndex((x) => offset >= x.start && offset <= x.end);
        return i >= 0 ? u.pieces[i]!.start - old.pieces[i]!.start : 0;
      };
      for (const f of old.findings) all.push({ pass: f.pass, diagnostic: rebase(f.diagnostic, old.source, source, shift) });
    } else {
      const ids = new Set(u.programs.map(programId));
      const mine: PassFinding[] = [];
      for (const pass of settings.passes) {
        yield;
        const r = auditReport(text, path, [pass], { ...run, programs: (p) => ids.has(programId(p)) });
        for (const d of r.findings) if (!problemKeys.has(sameKey(d))) mine.push({ pass: pass.name, diagnostic: d });
      }
      analysed++;
      audit = { source, pieces: u.pieces, findings: mine };
      all.push(...mine);
    }
    cache.set(key, audit);
  }
  // Sorted and each finding once, as the CLI reports them (a rule file extending several passes derives it once per pass).
  const byDiagnostic = new Map(all.map((f) => [f.diagnostic, f]));
  const seen = new Set<string>();
  const findings: PassFinding[] = [];
  for (const d of sortDiagnostics(all.map((f) => f.diagnostic))) {
    const k = sameKey(d);
    if (seen.has(k)) continue;
    seen.add(k);
    findings.push(byDiagnostic.get(d)!);
  }
  return { findings, cache, analysed, total: units.length };
}
