/**
 * `apply` on files that import inline helpers from other files inserts the markers the helpers
 * need (as inlined into the file) into the helpers' own files. When a helper file is patched by
 * more than one task of the run (two callers, or a caller and the helper file's own task), the
 * tasks concerned run again one after the other, each reading the texts the ones before left
 * (apply is idempotent, so a marker one of them inserted is not inserted again): each file gets
 * one final text, with every marker once, printed, diffed or written once.
 */
import { resolve } from 'node:path';
import type { RuleSession } from '../passes/rule-session.js';
import { type FileResult, type FileTask, runFileTask, unifiedDiff } from './file-task.js';
import { readSource, writeAtomic } from './files.js';

/**
 * Settles `results` (of `tasks`, in place) where helper files are patched (see the file comment);
 * with `--write` writes the helper files. Returns how many helper files no task names were written.
 */
export function settleHelperFiles(tasks: readonly FileTask[], results: FileResult[], session: RuleSession): number {
  const mode = tasks[0]?.mode ?? 'print';
  const own = new Map(tasks.map((t, i) => [resolve(t.file), i]));
  const patchers = new Map<string, number>(); // helper file → how many tasks patch it (its own task counts)
  results.forEach((r) => {
    for (const o of r.others ?? []) patchers.set(resolve(o.file), (patchers.get(resolve(o.file)) ?? 0) + 1);
  });
  const shared = [...patchers].filter(([f, n]) => n > 1 || own.has(f)).map(([f]) => f);
  const involved = new Set<number>();
  results.forEach((r, i) => {
    if ((r.others ?? []).some((o) => shared.includes(resolve(o.file)))) involved.add(i);
  });
  for (const f of shared) if (own.has(f)) involved.add(own.get(f)!);
  let written = 0;
  // A helper file only one task patches, and no task names: as that task left it.
  results.forEach((r, i) => {
    if (involved.has(i) || mode !== 'write') return;
    for (const o of r.others ?? []) {
      writeAtomic(o.file, o.after);
      written++;
    }
    r.others = [];
  });
  if (involved.size === 0) return written;
  const order = [...involved].sort((a, b) => a - b);
  const overlay: Record<string, string> = {};
  const before = new Map<string, string>();
  const firstOf = new Map<string, string>(); // (a helper file that is no task: as the user named it)
  const prior = new Map(order.map((i) => [i, results[i]!]));
  for (const i of order) {
    const t = tasks[i]!;
    const abs = resolve(t.file);
    if (!before.has(abs)) before.set(abs, overlay[abs] ?? readSource(t.file).text);
    const r = runFileTask({ ...t, mode: 'print', overlay: { ...overlay } }, session);
    if (r.output !== undefined) overlay[abs] = r.output;
    for (const o of r.others ?? []) {
      const a = resolve(o.file);
      if (!before.has(a)) before.set(a, o.before);
      if (!firstOf.has(a)) firstOf.set(a, o.file);
      overlay[a] = o.after;
    }
    // (The edits counted: those of the first round, each task on the files as they were.)
    const { applied } = prior.get(i)!;
    results[i] = { ...r, others: [], ...(applied !== undefined ? { applied } : {}) };
  }
  // Each file's final text: for a task, its own result; a helper file no task names goes with the first task that patched it.
  for (const i of order) {
    const t = tasks[i]!;
    const r = results[i]!;
    const abs = resolve(t.file);
    const text = overlay[abs];
    if (text === undefined || r.output === undefined) continue;
    const was = before.get(abs)!;
    // (--write: the first round wrote the file's own edits already.)
    r.changed = text !== was || prior.get(i)!.changed === true;
    if (mode === 'write') {
      if (text !== was) writeAtomic(t.file, text);
      r.output = '';
    } else r.output = mode === 'diff' ? (text !== was ? unifiedDiff(t.file, was, text) : '') : text;
  }
  const first = order[0]!;
  for (const [abs, file] of firstOf) {
    if (own.has(abs)) continue;
    const after = overlay[abs]!;
    const was = before.get(abs)!;
    if (after === was) continue;
    const r = results[first]!;
    if (mode === 'write') {
      writeAtomic(file, after);
      written++;
    } else if (mode === 'diff') r.output = (r.output ?? '') + unifiedDiff(file, was, after);
    else r.others = [...(r.others ?? []), { file, before: was, after }];
  }
  return written;
}
