/**
 * Statement-level delta debugging of a counterexample: after fast-check's own shrinking,
 * removes functions and statements (and unwraps `if` / loop / scope statements into their
 * bodies) one at a time, keeping each change under which the program still fails the same
 * property, until no single change does. Works on any module text, whatever made it.
 */
import { parseModule } from '../frontend/index.js';
import type { Module, Program, Stmt } from '../ir/nodes.js';
import { printModule } from '../ir/print.js';
import { walkStmts } from '../ir/visit.js';

const PASS: Stmt = { kind: 'Pass', start: 0, end: 0 };

/** `body` with its i-th statement (counting nested ones in pre-order) removed or unwrapped. */
function bodyVariants(body: readonly Stmt[]): Stmt[][] {
  const out: Stmt[][] = [];
  const nonEmpty = (b: Stmt[]): Stmt[] => (b.length > 0 ? b : [PASS]);
  body.forEach((s, i) => {
    const put = (repl: Stmt[]): Stmt[] => [...body.slice(0, i), ...repl, ...body.slice(i + 1)];
    if (s.kind !== 'Pass') out.push(put([]));
    switch (s.kind) {
      case 'If':
        out.push(put(s.then.filter((x) => x.kind !== 'Pass')), put(s.orelse));
        for (const v of bodyVariants(s.then)) out.push(put([{ ...s, then: nonEmpty(v) }]));
        for (const v of bodyVariants(s.orelse)) out.push(put([{ ...s, orelse: v.filter((x) => x.kind !== 'Pass') }]));
        if (s.orelse.length > 0) out.push(put([{ ...s, orelse: [], isElif: false }]));
        break;
      case 'While':
      case 'For':
      case 'Scope':
        out.push(put(s.body.filter((x) => x.kind !== 'Pass')));
        for (const v of bodyVariants(s.body)) out.push(put([{ ...s, body: nonEmpty(v) }]));
        break;
      default:
        break;
    }
  });
  return out.map((b) => (b.length > 0 ? b : [PASS]));
}

/** Every one-step reduction of the programs: a function removed, or one statement change. */
function variants(programs: readonly Program[]): Program[][] {
  const out: Program[][] = [];
  programs.forEach((p, pi) => {
    const withProgram = (q: Program): Program[] => programs.map((x, i) => (i === pi ? q : x));
    if (p.functions.length > 1) {
      p.functions.forEach((_, fi) => out.push(withProgram({ ...p, functions: p.functions.filter((__, i) => i !== fi) })));
    }
  });
  programs.forEach((p, pi) => {
    const withProgram = (q: Program): Program[] => programs.map((x, i) => (i === pi ? q : x));
    p.functions.forEach((f, fi) => {
      if (f.body.length === 0) return;
      for (const body of bodyVariants(f.body)) {
        out.push(withProgram({ ...p, functions: p.functions.map((g, i) => (i === fi ? { ...f, body, docstring: null } : g)) }));
      }
    });
  });
  return out;
}

/**
 * The smallest program reachable from `text` by single removals under which `fails` still
 * holds (at most `maxChecks` calls of `fails`). `text` itself must fail.
 */
export function shrinkStatements(text: string, fails: (candidate: string) => boolean, maxChecks = 400): string {
  let module: Module;
  try {
    module = parseModule(text, 'gen.py');
  } catch {
    return text;
  }
  const print = (programs: Program[]): string => printModule({ ...module, programs });
  let programs = module.programs;
  let best = text;
  let checks = 0;
  let start = 0;
  for (;;) {
    const vs = variants(programs);
    let found = -1;
    for (let k = 0; k < vs.length && checks < maxChecks; k++) {
      const i = (start + k) % vs.length;
      const candidate = print(vs[i]!);
      checks++;
      let ok = false;
      try {
        ok = fails(candidate);
      } catch {
        ok = false;
      }
      if (ok) {
        found = i;
        break;
      }
    }
    if (found < 0) return best;
    programs = vs[found]!;
    best = print(programs);
    start = found;
  }
}

/** The statements of a module's function bodies (`pass` not counted). */
export function statementCount(text: string): number {
  let n = 0;
  for (const p of parseModule(text, 'gen.py').programs) {
    for (const f of p.functions) walkStmts(f.body, (s) => void (s.kind === 'Pass' ? 0 : n++));
  }
  return n;
}
