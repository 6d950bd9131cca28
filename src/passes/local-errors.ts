/**
 * Errors stay local to the unit of code they are in: a `@pl.program` class, or one module-level JIT
 * kernel (each compiled on its own). `apply` leaves a unit with an error finding untouched (its
 * errors are reported, exit 2) and still rewrites every other unit, as it does for a unit it
 * cannot read.
 */

import type { NodeTable } from '../facts/extract.js';
import type { Module } from '../ir/nodes.js';
import type { Diagnostic } from '../report/diagnostic.js';
import { type EditSet, EditTable } from '../rewrite/edits.js';

interface Unit {
  key: string;
  start: number;
  end: number;
}

/** The units of a module: each program class, each function of the JIT pseudo-program. */
function unitsOf(module: Module): Unit[] {
  const out: Unit[] = [];
  for (const p of module.programs) {
    if (p.jit) for (const f of p.functions) out.push({ key: `jit ${f.name}`, start: f.start, end: f.end });
    else out.push({ key: `program ${p.name}`, start: p.start, end: p.end });
  }
  return out;
}

/**
 * The edits of `edits` outside the failed units of `module` (parsed whole from the text the edits are for): those holding one of `errors` (their keys are added
 * to `failed`, which carries them to the next pass) and those already in `failed`. Null when an
 * error is in no unit (it stops the whole file).
 */
export function editsOutsideFailed(
  module: Module,
  table: NodeTable,
  edits: EditSet,
  errors: readonly Diagnostic[],
  failed: Set<string>,
): EditTable | null {
  const units = unitsOf(module);
  const unitAt = (pos: number): Unit | undefined => units.find((u) => u.start <= pos && pos < u.end);
  for (const d of errors) {
    const u = d.location ? unitAt(d.location.start) : undefined;
    if (!u) return null;
    failed.add(u.key);
  }
  const bad = units.filter((u) => failed.has(u.key));
  if (bad.length === 0) return EditTable.of(edits);
  const keep = (id: number): boolean => {
    const n = table.get(id);
    const at = n && 'start' in n && typeof n.start === 'number' ? n.start : -1;
    return !bad.some((u) => u.start <= at && at < u.end);
  };
  const out: EditSet = {
    insertCall: edits.insertCall.filter((e) => keep(e.stmt)),
    orphanArgs: edits.orphanArgs.filter((e) => keep(e.stmt)),
    replaceDeps: edits.replaceDeps.filter((e) => keep(e.node)),
    setKwarg: edits.setKwarg.filter((e) => keep(e.call)),
    replaceKwarg: edits.replaceKwarg.filter((e) => keep(e.call)),
    removeFuncAttr: edits.removeFuncAttr.filter((e) => keep(e.func)),
    hoist: (edits.hoist ?? []).filter((e) => keep(e.stmt)),
    bad: edits.bad.filter((e) => keep(e.node)),
  };
  return EditTable.of(out);
}
