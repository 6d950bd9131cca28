/**
 * The ops a user's rules name, so that `verify` generates programs that call them: every string
 * literal of a user contract's rule files (and of `--rules` extension files) that is an op of
 * the catalog (a canonical name or a spelling) or a `pl.` / `pld.` name the catalog does not
 * know (`wait_op("pld.system.probe")`). Each becomes a statement the communication generator
 * mixes in, with arguments chosen by the catalog's parameter names.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import * as b from '../gen/build.js';
import type { Expr, Stmt } from '../ir/nodes.js';
import { opByCanonical, opBySpelling } from '../ir/ops.js';
import type { RunOptions } from '../passes/pipeline.js';
import { PASSES, type PassSpec, rulesDir } from '../passes/registry.js';

/** The rule files of `passes` that are not shipped contracts', and the `--rules` extension files. */
function userRuleFiles(passes: readonly PassSpec[], run: RunOptions): string[] {
  const shipped = new Set(PASSES.map((p) => p.name));
  const files: string[] = [];
  for (const p of passes) {
    if (shipped.has(p.name)) continue;
    for (const f of [p.entry, p.audit]) files.push(isAbsolute(f) ? f : join(run.rulesRoot ?? rulesDir(), f));
  }
  for (const e of run.extras ?? []) files.push(e.path);
  return files;
}

/** The op names the user's rule files mention (each file and its local `#include`s, read once). */
export function contractOpNames(passes: readonly PassSpec[], run: RunOptions): string[] {
  const seen = new Set<string>();
  const names = new Set<string>();
  const read = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    for (const m of text.matchAll(/#include\s+"([^"<>]+)"/g)) {
      // Only the contract's own files: the shipped library names every op.
      if (!m[1]!.startsWith('..')) read(join(dirname(file), m[1]!));
    }
    for (const m of text.matchAll(/"((?:pld?\.)?[a-z_]+(?:\.[a-z_]\w*)+)"/g)) {
      const n = m[1]!;
      const spec = opBySpelling(n) ?? opByCanonical(n);
      if (spec) names.add(spec.printName);
      else if (/^pld?\./.test(n)) names.add(n);
    }
  };
  for (const f of userRuleFiles(passes, run)) read(f);
  return [...names].sort();
}

/** An argument for a parameter of this name, from the communication kernels' parameters. */
function argFor(param: string): Expr {
  if (/sig|signal/.test(param)) return b.name('sig');
  if (/tile/.test(param)) return b.name('t');
  if (/peer|rank/.test(param)) return b.name('peer');
  if (/offset|shape/.test(param)) return b.list(b.int(0), b.int(0));
  if (/tensor|dst|src|target|input|output|window|buf|workspace/.test(param)) return b.name('win_a');
  return b.int(1);
}

/** A statement calling op `name` (a printed name or an unknown `pl.` / `pld.` name). */
export function opStatement(name: string): Stmt {
  const spec = opBySpelling(name) ?? opByCanonical(name);
  // Positional parameters only (keyword-only ones keep their defaults); an unknown op takes a wait's layout.
  const args = spec
    ? spec.params.filter((p) => !p.kwOnly).map((p) => argFor(p.name))
    : [b.name('sig'), b.list(b.int(0), b.int(0)), b.int(1)];
  return b.exprStmt(b.call(name, args));
}
