/**
 * The analyses behind the language server, on a document's text (no LSP types here): the text
 * after fixing one finding or all of them (the same rewriter as `apply`) and the explanation
 * of a line. The audit findings, program by program, are in `programs.ts`.
 */
import { parseModule } from '../frontend/index.js';
import { type Analysis, analyze } from '../passes/analyze.js';
import { explainLine } from '../passes/explain.js';
import { type ExtraRuleFile, extrasFor, readExtraRules } from '../passes/extra-rules.js';
import { readFindings } from '../passes/findings.js';
import { applyPasses } from '../passes/pipeline.js';
import { readEdits } from '../passes/read-edits.js';
import type { RuleSession } from '../passes/rule-session.js';
import { type Diagnostic, DiagnosticError } from '../report/diagnostic.js';
import { type EditSet, editCount, emptyEdits } from '../rewrite/edits.js';
import { rewrite } from '../rewrite/rewrite.js';
import type { LspSettings } from './settings.js';

/** A finding and the pass whose rules derived it ('' for a parse or rule-file error). */
export interface PassFinding {
  pass: string;
  diagnostic: Diagnostic;
}

/** The extra rule files of the settings, read now. */
function extras(settings: LspSettings): ExtraRuleFile[] {
  return readExtraRules(settings.ruleDirs, settings.passes);
}

/** The text `apply` produces (every pass of the settings), or undefined when apply refuses (errors). */
export function fixAllText(text: string, path: string, settings: LspSettings, session: RuleSession): string | undefined {
  try {
    return applyPasses(text, path, settings.passes, { defines: settings.defines, extras: extras(settings), session }).text;
  } catch (e) {
    if (e instanceof DiagnosticError) return undefined;
    throw e;
  }
}

/**
 * The text after only the edits pass `passName` derives at the node starting at offset `start`
 * (the markers after that statement; a barrier before that loop with the deps it rewrites):
 * undefined when there are none or the text has errors.
 */
export function fixOneText(
  text: string,
  path: string,
  settings: LspSettings,
  session: RuleSession,
  passName: string,
  start: number,
): string | undefined {
  const pass = settings.passes.find((p) => p.name === passName);
  if (!pass) return undefined;
  try {
    const module = parseModule(text, path, { defines: settings.defines });
    const a = analyze(module, pass.entry, extrasFor(pass, extras(settings), settings.passes, undefined, session), { session });
    if (readFindings(a.result, a.table, module.source).some((d) => d.severity === 'error')) return undefined;
    const edits = editsAt(a, readEdits(a.result), start);
    if (editCount(edits) === 0) return undefined;
    return rewrite(module, a.table, edits).text;
  } catch (e) {
    if (e instanceof DiagnosticError) return undefined;
    throw e;
  }
}

/** The part of an edit set anchored at the node that starts at `start`. */
function editsAt(a: Analysis, all: EditSet, start: number): EditSet {
  const at = (id: number): boolean => {
    const e = a.table.get(id);
    return e !== undefined && e.kind !== 'Block' && e.kind !== 'Exit' && 'start' in e && e.start === start;
  };
  const out = emptyEdits();
  out.insertCall = all.insertCall.filter((e) => at(e.stmt));
  // A binding inserted here and the deps lists the rules point at it.
  const names = new Set(out.insertCall.map((b) => b.bind).filter((n) => n !== ''));
  out.replaceDeps = all.replaceDeps.filter((e) => names.has(e.name));
  out.setKwarg = all.setKwarg.filter((e) => at(e.call));
  out.replaceKwarg = all.replaceKwarg.filter((e) => at(e.call));
  // A call hoisted out of this statement (the markers inserted before it are anchored here too).
  out.hoist = (all.hoist ?? []).filter((e) => at(e.stmt));
  return out;
}

/**
 * What `ptolog explain FILE:LINE` prints for 1-based `line` of the document, per pass of the
 * settings (the whole module analysed, its helpers with it): the derived tuples with their proofs.
 * A document that does not read gives its errors.
 */
export function explainText(text: string, path: string, settings: LspSettings, session: RuleSession, line: number): string {
  try {
    const module = parseModule(text, path, { defines: settings.defines });
    const out: string[] = [];
    for (const pass of settings.passes) {
      const a = analyze(module, pass.audit, extrasFor(pass, extras(settings), settings.passes, undefined, session), {
        session,
        ...(settings.stage !== undefined ? { stage: settings.stage } : {}),
      });
      out.push(`== ${pass.name}`, explainLine(a, line, pass));
    }
    return out.join('\n');
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostics.map((d) => d.message).join('\n');
    throw e;
  }
}
