/**
 * The quick fix of one finding: the text after only the edits its pass derives at the node the
 * finding starts at (the markers after that statement; a barrier before that loop with the deps
 * it rewrites), as `apply` would write them.
 */
import { parseModule } from '../../src/frontend/index.js';
import type { Module } from '../../src/ir/nodes.js';
import { type Analysis, analyze } from '../../src/passes/analyze.js';
import { type ExtraRuleFile, extrasFor } from '../../src/passes/extra-rules.js';
import { readFindings } from '../../src/passes/findings.js';
import { readEdits } from '../../src/passes/read-edits.js';
import { PASSES } from '../../src/passes/registry.js';
import type { RuleSession } from '../../src/passes/rule-session.js';
import { DiagnosticError } from '../../src/report/diagnostic.js';
import { type EditSet, editCount, emptyEdits } from '../../src/rewrite/edits.js';
import { rewriteText } from '../../src/rewrite/rewrite.js';

/** The part of an edit set anchored at the node that starts at offset `start`. */
function editsAt(a: Analysis, all: EditSet, start: number): EditSet {
  const at = (id: number): boolean => {
    const e = a.table.get(id);
    return e !== undefined && e.kind !== 'Block' && e.kind !== 'Exit' && 'start' in e && e.start === start;
  };
  const out = emptyEdits();
  out.insertCall = all.insertCall.filter((e) => at(e.stmt));
  // A binding inserted here and the deps lists that the rules point at it.
  const names = new Set(out.insertCall.map((b) => b.bind).filter((n) => n !== ''));
  out.replaceDeps = all.replaceDeps.filter((e) => names.has(e.name));
  out.setKwarg = all.setKwarg.filter((e) => at(e.call));
  out.replaceKwarg = all.replaceKwarg.filter((e) => at(e.call));
  return out;
}

/**
 * The offsets at which pass `passName`'s rules derive a fix on `module` (empty when its findings
 * hold an error: apply refuses then).
 */
export function fixableStarts(module: Module, extras: readonly ExtraRuleFile[], session: RuleSession, passName: string): Set<number> {
  const out = new Set<number>();
  const pass = PASSES.find((p) => p.name === passName);
  if (!pass) return out;
  const a = analyze(module, pass.entry, extrasFor(pass, extras, PASSES, undefined, session), { session });
  if (readFindings(a.result, a.table, module.source).some((d) => d.severity === 'error')) return out;
  const edits = readEdits(a.result);
  const add = (id: number): void => {
    const e = a.table.get(id);
    if (e !== undefined && e.kind !== 'Block' && e.kind !== 'Exit' && 'start' in e) out.add(e.start);
  };
  for (const e of edits.insertCall) add(e.stmt);
  for (const e of edits.setKwarg) add(e.call);
  for (const e of edits.replaceKwarg) add(e.call);
  return out;
}

/**
 * `kernel` after the fix pass `passName` derives for the finding at offset `start`: undefined
 * when it derives none there, or the kernel has errors (apply refuses).
 */
export function fixOne(
  kernel: string,
  path: string,
  extras: readonly ExtraRuleFile[],
  session: RuleSession,
  passName: string,
  start: number,
): string | undefined {
  const pass = PASSES.find((p) => p.name === passName);
  if (!pass) return undefined;
  try {
    const module = parseModule(kernel, path);
    const a = analyze(module, pass.entry, extrasFor(pass, extras, PASSES, undefined, session), { session });
    if (readFindings(a.result, a.table, module.source).some((d) => d.severity === 'error')) return undefined;
    const edits = editsAt(a, readEdits(a.result), start);
    if (editCount(edits) === 0) return undefined;
    return rewriteText(module, a.table, edits).text;
  } catch (e) {
    if (e instanceof DiagnosticError) return undefined;
    throw e;
  }
}
