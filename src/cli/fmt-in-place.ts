import type { Module } from '../ir/nodes.js';
import { printFunction, printProgram } from '../ir/print.js';

/**
 * The file `mod` was read from with each kernel in canonical form and every other byte kept:
 * module docstrings, imports, constants, code outside programs, the comments before a program.
 * Each `@pl.program` class and each `@pl.jit` kernel is replaced by its printed form at its own
 * indentation (without its leading comments, which stay where they are).
 */
export function formatInPlace(mod: Pick<Module, 'source' | 'programs'>): string {
  const text = mod.source.text;
  const spans: { start: number; end: number; printed: string }[] = [];
  for (const p of mod.programs) {
    if (p.jit) {
      // Module-level JIT kernels: each function in place (other code may stand between them).
      for (const f of p.functions) spans.push({ start: f.start, end: f.end, printed: printFunction({ ...f, comments: [] }, 0) });
    } else spans.push({ start: p.start, end: p.end, printed: printProgram({ ...p, comments: [] }) });
  }
  spans.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue;
    const lineStart = text.lastIndexOf('\n', s.start - 1) + 1;
    const indent = text.slice(lineStart, s.start);
    if (indent.trim() !== '') continue; // a program that does not start its line: keep it as written
    let printed = s.printed
      .split('\n')
      .map((l, i) => (i === 0 || l === '' ? l : `${indent}${l}`))
      .join('\n');
    // The span ends at the end of the last statement, with or without its line break.
    if (!text.slice(s.start, s.end).endsWith('\n')) printed = printed.replace(/\n$/, '');
    out += text.slice(at, s.start) + printed;
    at = s.end;
  }
  return out + text.slice(at);
}
