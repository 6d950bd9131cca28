import { type EvalResult, type RuleProgram, summaryOf } from '../datalog/index.js';
import type { NodeTable } from '../facts/extract.js';
import type { Diagnostic, Location, RelatedLocation, Severity } from '../report/diagnostic.js';
import { errorAt } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { closestName } from '../report/suggest.js';
import type { Catalog } from './catalog.js';

/** The source location of a node or binding id (a function's exit: the function's last line). */
export function locationOf(table: NodeTable, source: SourceText, id: number): Location | undefined {
  const e = table.get(id);
  if (!e) return undefined;
  if (e.kind === 'Exit') return { source, start: e.func.end, end: e.func.end };
  if (e.kind === 'Block') return undefined;
  if ('start' in e) return { source, start: e.start, end: e.end };
  return undefined;
}

/** What readFindings adds beyond the finding, fix and notes. */
export interface ReadFindingsOptions {
  /** Attach `finding_related` locations as `related` (editors show them; the CLI text does not yet). */
  related?: boolean;
}

/** Reads `finding`, `finding_fix` and `finding_note` (rules/edits.dl) into located diagnostics. */
export function readFindings(result: EvalResult, table: NodeTable, source: SourceText, opts: ReadFindingsOptions = {}): Diagnostic[] {
  if (!result.has('finding')) return [];
  const fixes = new Map<string, string[]>();
  if (result.has('finding_fix')) {
    result.forEachTuple('finding_fix', ([code, n, fix]) => {
      const k = `${String(code)}\0${String(n)}`;
      fixes.set(k, [...(fixes.get(k) ?? []), String(fix)]);
    });
  }
  const notes = new Map<string, [number, string][]>();
  if (result.has('finding_note')) {
    result.forEachTuple('finding_note', ([code, n, ord, note]) => {
      const k = `${String(code)}\0${String(n)}`;
      notes.set(k, [...(notes.get(k) ?? []), [ord as number, String(note)]]);
    });
  }
  const related = opts.related ? readRelated(result, table, source) : new Map<string, RelatedLocation[]>();
  const out: Diagnostic[] = [];
  result.forEachTuple('finding', ([code, severity, n, message]) => {
    const k = `${String(code)}\0${String(n)}`;
    const location = locationOf(table, source, n as number);
    const d: Diagnostic = {
      severity: normalizeSeverity(String(severity)),
      code: String(code),
      message: String(message),
      ...(location ? { location } : { path: source.path }),
    };
    const fx = fixes.get(k);
    if (fx) d.fix = fx.join('; ');
    const ns = notes.get(k);
    if (ns) d.notes = ns.sort((a, b) => a[0] - b[0]).map(([, t]) => t);
    if (!SEVERITIES.includes(String(severity)))
      d.notes = [...(d.notes ?? []), `the rule gave the severity "${String(severity)}", which is not error, warning or note`];
    const rs = related.get(k);
    if (rs) d.related = rs;
    out.push(d);
  });
  return sortDiagnostics(out);
}

/** `finding_related(code, n, m, message)` as located related locations keyed by `code\0n`, in source order. */
export function readRelated(result: EvalResult, table: NodeTable, source: SourceText): Map<string, RelatedLocation[]> {
  const out = new Map<string, RelatedLocation[]>();
  if (!result.has('finding_related')) return out;
  result.forEachTuple('finding_related', ([code, n, m, message]) => {
    const location = locationOf(table, source, m as number);
    if (!location) return;
    const k = `${String(code)}\0${String(n)}`;
    out.set(
      k,
      [...(out.get(k) ?? []), { location, message: String(message) }].sort((a, b) => a.location.start - b.location.start),
    );
  });
  return out;
}

const SEVERITIES: readonly string[] = ['error', 'warning', 'note'];

/**
 * Located errors for `finding(code, severity, ...)` rules and facts whose severity is a constant
 * other than "error", "warning" or "note" (a `"warn"` would otherwise be read as something else).
 */
export function checkFindingSeverities(program: RuleProgram): Diagnostic[] {
  const out: Diagnostic[] = [];
  const finding = program.relation('finding')?.id;
  for (let i = 0; i < program.clauses.length; i++) {
    const pc = program.clauses[i]!;
    if (pc.head !== finding) continue;
    // (The head's constants from the clause's summary: a clause read from compiled rules is decoded only to be reported.)
    const given = summaryOf(pc, program).headStrings[1];
    if (given == null || SEVERITIES.includes(given)) continue;
    const sev = pc.clause.head.args[1];
    if (sev?.kind !== 'str') continue;
    out.push(
      errorAt(sev.loc.source, sev.loc.start, sev.loc.end, 'bad-severity', `"${sev.value}" is not a severity`, {
        fix: 'write "error", "warning" or "note".',
      }),
    );
  }
  return out;
}

/**
 * Located `undeclared-code` errors for `finding(code, ...)` rules and facts whose constant code
 * the catalog does not declare (a code computed at run time is not checked here).
 */
export function checkFindingCodes(program: RuleProgram, catalog: Catalog): Diagnostic[] {
  const out: Diagnostic[] = [];
  const finding = program.relation('finding')?.id;
  for (let i = 0; i < program.clauses.length; i++) {
    const pc = program.clauses[i]!;
    if (pc.head !== finding) continue;
    const given = summaryOf(pc, program).headStrings[0];
    if (given == null || catalog.has(given)) continue;
    const code = pc.clause.head.args[0];
    if (code?.kind !== 'str') continue;
    const near = closestName(code.value, catalog.keys());
    out.push(
      errorAt(
        code.loc.source,
        code.loc.start,
        code.loc.end,
        'undeclared-code',
        `the finding code "${code.value}" is not declared in any diagnostics.toml${near ? ` (did you mean "${near}"?)` : ''}`,
        {
          fix: `declare [${code.value}] (severity, summary, help, example) in a diagnostics.toml beside this rule file (see \`ptolog rules undeclared-code\`).`,
        },
      ),
    );
  }
  return out;
}

/** A severity a rule computed at run time; anything else is reported as an error (never silently a note). */
function normalizeSeverity(s: string): Severity {
  return s === 'error' || s === 'warning' || s === 'note' ? s : 'error';
}

/** Orders diagnostics by file position, then code. */
export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return ds.sort(
    (a, b) => (a.location?.start ?? -1) - (b.location?.start ?? -1) || a.code.localeCompare(b.code) || a.message.localeCompare(b.message),
  );
}
