// A finding's fix as the lines InsertCommFence-style rules insert after its statement (`fixed_by_insertion`).
import type { EvalResult } from '../datalog/index.js';
import type { NodeTable } from '../facts/extract.js';
import { InternPool } from '../ir/compact.js';
import type { Module } from '../ir/nodes.js';
import { printStmt } from '../ir/print.js';
import type { Diagnostic } from '../report/diagnostic.js';
import type { EditSet } from '../rewrite/edits.js';
import { insertedStmt, planEdits } from '../rewrite/rewrite.js';
import { withEditFixes } from './finding-edits.js';

/**
 * Adds, to findings whose code the rules declare `fixed_by_insertion(code)` (rules/edits.dl),
 * at a statement where the rules derive insertions, the inserted text as the fix; to findings
 * the rules pair with edits (`finding_edit`), those edits (finding-edits.ts).
 */
export function withInsertionFixes(
  result: EvalResult,
  edits: EditSet,
  table: NodeTable,
  module: Module,
  findings: Diagnostic[],
): Diagnostic[] {
  const src = module.source;
  withEditFixes(result, edits, table, module, findings);
  const fixedCodes = new Set<string>();
  if (result.has('fixed_by_insertion')) result.forEachTuple('fixed_by_insertion', (t) => fixedCodes.add(String(t[0])));
  // Every edit is checked as `apply` would (a bad edit is the same located error here).
  planEdits(table, src, edits, 'check');
  // The inserted lines are printed only at statements where such a finding is (identical lines kept once).
  const wanted = new Set<number>();
  for (const d of findings) if (!d.fix && d.location && fixedCodes.has(d.code)) wanted.add(d.location.start);
  const lines = new Map<string, string>();
  const byStart = new Map<number, { lines: string[]; end: number }>();
  for (const e of edits.insertCall.filter((x) => x.place === 'after').sort((x, y) => x.seq - y.seq)) {
    const anchor = table.get(e.stmt);
    if (!anchor || !('start' in anchor) || !wanted.has(anchor.start)) continue;
    const built = insertedStmt(e, table, anchor.end);
    if (Array.isArray(built)) continue;
    const text = printStmt(built).trim();
    const line = lines.get(text) ?? text;
    lines.set(line, line);
    const entry = byStart.get(anchor.start) ?? { lines: [], end: anchor.end };
    entry.lines.push(line);
    byStart.set(anchor.start, entry);
  }
  // Findings repeat their fixes (a million-statement kernel: 400,000 findings, a few fix texts): one string each.
  const texts = new InternPool();
  const shared = (t: string): string => texts.str(t);
  for (const d of findings) {
    if (d.fix || !d.location || !fixedCodes.has(d.code)) continue;
    const entry = byStart.get(d.location.start);
    if (!entry) continue;
    d.fix = shared(`insert after it: ${entry.lines.join('; ')}`);
    // As an edit: the lines after the statement's last line, with its first line's indentation.
    const last = src.lineOf(entry.end);
    const next = src.lineStart(last + 1);
    const nl = src.text.slice(next - 2, next) === '\r\n' ? '\r\n' : '\n';
    const indent = /^[ \t]*/.exec(src.lineText(src.lineOf(d.location.start)))![0];
    const body = entry.lines.map((l) => indent + l + nl).join('');
    const atEnd = next >= src.text.length && !src.text.endsWith('\n');
    d.fixEdits = [{ start: next, end: next, text: shared(atEnd ? nl + body : body) }];
  }
  return findings;
}
