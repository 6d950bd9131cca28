// A finding's fix as the edits the rules say make it up (`finding_edit`, rules/edits.dl).
import { diffLines } from 'diff';
import type { EvalResult } from '../datalog/index.js';
import type { NodeTable } from '../facts/node-table.js';
import type { Module } from '../ir/nodes.js';
import type { Diagnostic, FixEdit } from '../report/diagnostic.js';
import type { EditSet } from '../rewrite/edits.js';
import { patchSource } from '../rewrite/patch.js';
import { textEditsOf } from '../rewrite/rewrite.js';

/** The line-level byte edits that turn `from` into `to` (applied together, they give exactly `to`). */
export function lineEdits(from: string, to: string): FixEdit[] {
  const out: FixEdit[] = [];
  let offset = 0;
  let pending: FixEdit | undefined;
  for (const part of diffLines(from, to)) {
    if (part.added || part.removed) {
      pending ??= { start: offset, end: offset, text: '' };
      if (part.added) pending.text += part.value;
      else pending.end = offset += part.value.length;
    } else {
      if (pending) out.push(pending);
      pending = undefined;
      offset += part.value.length;
    }
  }
  if (pending) out.push(pending);
  return out;
}

/** The edits of `edits` derived at the nodes `at` (insertions and hoists at a statement, call and function edits); null: all, as arrays. */
function editsAt(edits: EditSet, nodes: ReadonlySet<number> | null): EditSet {
  const at = nodes ?? { has: () => true };
  return {
    insertCall: edits.insertCall.filter((e) => at.has(e.stmt)),
    orphanArgs: [],
    replaceDeps: edits.replaceDeps.filter((e) => at.has(e.node)),
    setKwarg: edits.setKwarg.filter((e) => at.has(e.call)),
    replaceKwarg: edits.replaceKwarg.filter((e) => at.has(e.call)),
    removeFuncAttr: edits.removeFuncAttr.filter((e) => at.has(e.func)),
    hoist: (edits.hoist ?? []).filter((e) => at.has(e.stmt)),
    bad: [],
  };
}

/**
 * Gives each finding of `findings` (located at node n) that the rules pair with edits
 * (`finding_edit(code, n, m)`) those edits as its `fixEdits`: the text `apply` would write for
 * them, as line edits of the module's source. The edits are checked first (a bad edit is the
 * same located error as in `apply`).
 */
export function withEditFixes(result: EvalResult, edits: EditSet, table: NodeTable, module: Module, findings: Diagnostic[]): void {
  if (!result.has('finding_edit')) return;
  const at = new Map<string, Set<number>>();
  result.forEachTuple('finding_edit', ([code, n, m]) => {
    const e = table.get(n as number);
    if (!e || !('start' in e)) return;
    const k = `${String(code)}\0${e.start}`;
    let s = at.get(k);
    if (!s) at.set(k, (s = new Set()));
    s.add(m as number);
  });
  if (at.size === 0) return;
  const text = module.source.text;
  const all = editsAt(edits, null);
  const done = new Map<string, FixEdit[]>();
  for (const d of findings) {
    if (!d.location || d.fixEdits) continue;
    const k = `${d.code}\0${d.location.start}`;
    const nodes = at.get(k);
    if (!nodes) continue;
    let fix = done.get(k);
    if (!fix) {
      const { source, textEdits } = textEditsOf(module, table, editsAt(all, nodes));
      fix = lineEdits(text, patchSource(source, textEdits).text);
      done.set(k, fix);
    }
    if (fix.length > 0) d.fixEdits = fix;
  }
}
