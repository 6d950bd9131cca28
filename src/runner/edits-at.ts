/**
 * The quick fix of one finding: only the edits its pass derives at the node the finding starts
 * at (the markers after that statement; a barrier before that loop with the deps it rewrites; a
 * call hoisted out of it), written as `apply` writes them. Shared by the language server and the
 * playground (through Runner.fixAt).
 */
import type { Module } from '../ir/nodes.js';
import type { Analysis } from '../passes/analyze.js';
import { readFindings } from '../passes/findings.js';
import { readEdits } from '../passes/read-edits.js';
import { DiagnosticError } from '../report/diagnostic.js';
import { type EditSet, editCount, emptyEdits } from '../rewrite/edits.js';
import { rewriteText } from '../rewrite/rewrite.js';

/** Whether id `id` of the analysis's table is a node (not a block or an exit) starting at `start`. */
function startsAt(a: Analysis, id: number, start: number): boolean {
  const e = a.table.get(id);
  return e !== undefined && e.kind !== 'Block' && e.kind !== 'Exit' && 'start' in e && e.start === start;
}

/** The part of an edit set anchored at the node that starts at offset `start`. */
export function editsAt(a: Analysis, all: EditSet, start: number): EditSet {
  const at = (id: number): boolean => startsAt(a, id, start);
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
 * The analysis of the module `parse` gives, by the pass's apply rules (`analyse`); null when the
 * text has errors (a program that does not read, an error finding: apply refuses).
 */
function applicable(parse: () => Module, analyse: (m: Module) => Analysis): { module: Module; a: Analysis; edits: EditSet } | null {
  const module = parse();
  if ((module.problems ?? []).some((d) => d.severity === 'error')) return null;
  const a = analyse(module);
  if (readFindings(a.result, a.table, module.source).some((d) => d.severity === 'error')) return null;
  return { module, a, edits: readEdits(a.result) };
}

/** The text after only the edits at offset `start` (see the file comment); undefined when there are none or the text has errors. */
export function fixAt(parse: () => Module, analyse: (m: Module) => Analysis, start: number): string | undefined {
  try {
    const got = applicable(parse, analyse);
    if (!got) return undefined;
    const edits = editsAt(got.a, got.edits, start);
    if (editCount(edits) === 0) return undefined;
    return rewriteText(got.module, got.a.table, edits).text;
  } catch (e) {
    if (e instanceof DiagnosticError) return undefined;
    throw e;
  }
}

/** The offsets at which the pass derives a fix (empty when the text has errors). */
export function fixableStarts(parse: () => Module, analyse: (m: Module) => Analysis): Set<number> {
  const out = new Set<number>();
  try {
    const got = applicable(parse, analyse);
    if (!got) return out;
    const add = (id: number): void => {
      const e = got.a.table.get(id);
      if (e !== undefined && e.kind !== 'Block' && e.kind !== 'Exit' && 'start' in e) out.add(e.start);
    };
    for (const e of got.edits.insertCall) add(e.stmt);
    for (const e of got.edits.setKwarg) add(e.call);
    for (const e of got.edits.replaceKwarg) add(e.call);
    for (const e of got.edits.hoist ?? []) add(e.stmt);
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
  }
  return out;
}
