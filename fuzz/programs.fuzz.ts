/**
 * Fuzz harness, programs (issue 34): mutated real programs (specs/**\/*.py, examples/) through
 * apply and audit. Each mutated program is checked:
 *
 * - nothing but a located diagnostic is ever thrown (apply, audit, the parse);
 * - where Python parses the input and apply writes something: Python parses the output too, and
 *   it is the same program once the inserted statements are taken out and the `deps=` / `cache=`
 *   values and `func_attr` entries ignored (only insertions and edited deps / cache text change;
 *   python-oracle.py); ptolog reads the output with the input's errors, no new ones;
 * - idempotence: apply on the output changes nothing;
 * - no silent skip: every kernel function Python sees (a @pl.function method of a @pl.program
 *   class, a function decorated with a `jit` spelling) is read by ptolog or has a diagnostic
 *   located in it (or the file has an error outside every kernel).
 *
 * PTOLOG_FUZZ_RUNS mutated programs (default 12); PTOLOG_SEED fixes the seed (printed on failure).
 * Run: `npx vitest run --config fuzz/vitest.config.ts fuzz/programs.fuzz.ts`. Needs `python3`.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { moduleErrors, parseModuleIsolated } from '../src/frontend/index.js';
import type { Module } from '../src/ir/nodes.js';
import { applyPasses, auditText } from '../src/passes/pipeline.js';
import { PASSES } from '../src/passes/registry.js';
import { RuleSession } from '../src/passes/rule-session.js';
import { type Diagnostic, DiagnosticError } from '../src/report/diagnostic.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env['PTOLOG_FUZZ_RUNS'] ?? 12);
/** The seed of the sample (printed with any failure: PTOLOG_SEED=<seed> gives the same cases). */
const SEED = Number(process.env['PTOLOG_SEED'] ?? (process.env['CI'] ? 20261204 : Date.now() % 2 ** 31));
const python = spawnSync('python3', ['--version']).status === 0;

function pyFiles(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...pyFiles(p));
    else if (f.endsWith('.py')) out.push(p);
  }
  return out;
}

/** The seeds: programs that hold a @pl.program class or a JIT kernel and something the passes edit. */
const seeds = [...pyFiles(join(root, 'specs')), ...pyFiles(join(root, 'examples'))]
  .sort()
  .map((p) => ({ path: p.slice(root.length), text: readFileSync(p, 'utf8') }))
  .filter((s) => /@\w+\.(program|jit)/.test(s.text) && /pld\.|manual_scope|set_cache_policy|\.submit\(/.test(s.text));

type Mutation =
  | { kind: 'delChar' | 'dupChar'; at: number }
  | { kind: 'insText'; at: number; text: string }
  | { kind: 'delLine' | 'dupLine' | 'indent' | 'dedent' | 'swap' | 'formFeed' | 'semicolonContinued' | 'continuedLine'; at: number }
  | { kind: 'rename'; at: number; suffix: string }
  | { kind: 'depsComment' | 'crlf'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // (The layouts of issue 34 keep the program Python's: they are drawn most.)
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('formFeed' as const, 'semicolonContinued' as const, 'continuedLine' as const),
      at: fc.nat(),
    }),
  },
  fc.record({ kind: fc.constantFrom('delChar' as const, 'dupChar' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insText' as const),
    at: fc.nat(),
    text: fc.constantFrom(
      '(',
      ')',
      '[',
      ']',
      ':',
      ',',
      '=',
      '.',
      '"',
      '#',
      '\\\n',
      '\f',
      ' ',
      '\t',
      ';',
      'x',
      '0',
      'é',
      'ステップ',
      '\n',
      '\r',
      '"""',
      '  # c\n',
    ),
  }),
  fc.record({
    kind: fc.constantFrom('delLine' as const, 'dupLine' as const, 'indent' as const, 'dedent' as const, 'swap' as const),
    at: fc.nat(),
  }),
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('rename' as const), at: fc.nat(), suffix: fc.constantFrom('é', '_ステップ', 'ﬁ', '·x') }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('depsComment' as const, 'crlf' as const), at: fc.nat() }) },
);

/** `src` with mutation `m` applied (the mutations of the defects of issue 34 among them). */
function mutate(src: string, m: Mutation): string {
  const n = Math.max(1, src.length);
  switch (m.kind) {
    case 'delChar':
      return src.slice(0, m.at % n) + src.slice((m.at % n) + 1);
    case 'dupChar':
      return src.slice(0, m.at % n) + (src[m.at % n] ?? '') + src.slice(m.at % n);
    case 'insText':
      return src.slice(0, m.at % n) + m.text + src.slice(m.at % n);
    case 'rename': {
      // A name bound in a kernel, renamed everywhere (as a word).
      const names = [...new Set([...src.matchAll(/^\s+([a-z_][a-z0-9_]*)\s*(?::[^=\n]*)?=[^=]/gm)].map((x) => x[1]!))];
      if (names.length === 0) return src;
      const name = names[m.at % names.length]!;
      return src.replace(new RegExp(`(?<![\\w.])${name}(?!\\w)`, 'g'), name + m.suffix);
    }
    case 'depsComment': {
      const lists = [...src.matchAll(/deps=\[([^\]\n]*)\]/g)];
      if (lists.length === 0) return src;
      const d = lists[m.at % lists.length]!;
      return `${src.slice(0, d.index)}deps=[\n    ${d[1]},  # the tasks before\n    # (all of them)\n]${src.slice(d.index! + d[0].length)}`;
    }
    case 'crlf':
      return src.replace(/\r?\n/g, m.at % 2 === 0 ? '\r\n' : '\r');
    default:
      break;
  }
  const lines = src.split('\n');
  // Simple statements in a block (where the rules anchor insertions): not a header, decorator or comment.
  const simple = (l: string): boolean => /^ +[^\s#@]/.test(l) && !/:\s*$/.test(l) && !/^ +(def|class|return|elif|else)\b/.test(l);
  const indented = lines
    .map((l, i) => [l, i] as const)
    .filter(([l]) => simple(l))
    .map(([, i]) => i);
  const i = m.at % lines.length;
  const k = indented.length > 0 ? indented[m.at % indented.length]! : i;
  switch (m.kind) {
    case 'delLine':
      lines.splice(i, 1);
      break;
    case 'dupLine':
      lines.splice(i, 0, lines[i]!);
      break;
    case 'indent':
      lines[i] = `  ${lines[i]}`;
      break;
    case 'dedent':
      lines[i] = lines[i]!.replace(/^ {1,3}/, '');
      break;
    case 'swap':
      if (i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
      break;
    case 'formFeed':
      // A form feed before the indentation of every other simple statement from k on.
      for (let j = 0; j < indented.length; j += 2) {
        const l = indented[(m.at + j) % indented.length]!;
        lines[l] = `\f${lines[l]}`;
      }
      break;
    case 'semicolonContinued':
      // `a; \` and the next statement on a line indented differently: one logical line.
      if (k + 1 < lines.length && simple(lines[k + 1]!)) {
        lines[k] = `${lines[k]}; \\`;
        lines[k + 1] = `    ${lines[k + 1]!.trimStart()}`;
      }
      break;
    case 'continuedLine':
      // A line of white space and `\` before a statement: Python reads it at the first line's indentation.
      lines.splice(k, 0, `${/^ */.exec(lines[k]!)![0]}\\`);
      lines[k + 1] = `  ${lines[k + 1]!.trimStart()}`;
      break;
  }
  return lines.join('\n');
}

interface Case {
  seed: string;
  mutations: Mutation[];
  text: string;
}

interface Oracle {
  valid: boolean;
  kernels: Array<{ name: string; first: number; line: number; end: number }>;
  outputValid?: boolean;
  /** null: not decided (too deeply nested for Python to compare). */
  sameShape?: boolean | null;
}

/** Python's reading of each case (python-oracle.py), in one process. */
function oracle(dir: string, cases: Array<{ input: string; output: string | null }>): Oracle[] {
  const list = join(dir, `cases-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(list, JSON.stringify(cases));
  const r = spawnSync('python3', [join(root, 'fuzz', 'python-oracle.py'), list], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`python-oracle.py failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Oracle[];
}

/** Runs `f`; a DiagnosticError whose diagnostics are all located (or name the file) is an answer, anything else a failure. */
function answer<T>(f: () => T): { value: T } | { diagnostics: Diagnostic[] } | { crash: string } {
  try {
    return { value: f() };
  } catch (e) {
    if (e instanceof DiagnosticError) {
      const unlocated = e.diagnostics.filter((d) => !d.location && !d.path);
      return unlocated.length > 0 ? { crash: `unlocated diagnostic: ${unlocated[0]!.message}` } : { diagnostics: e.diagnostics };
    }
    return { crash: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

/** Kernels Python sees that ptolog neither read nor reported a diagnostic in. */
function silentlySkipped(m: Module, kernels: Oracle['kernels']): string[] {
  const line = (offset: number): number => m.source.position(offset).line;
  const read = m.programs.flatMap((p) => p.functions.map((f) => ({ name: f.name, line: line(f.start) })));
  const located = (m.problems ?? []).filter((d) => d.location).map((d) => ({ d, line: line(d.location!.start) }));
  const inKernel = (l: number): boolean => kernels.some((k) => l >= k.first && l <= k.end);
  const fileLevel = (m.problems ?? []).some((d) => d.severity === 'error' && (!d.location || !inKernel(line(d.location.start))));
  if (fileLevel) return [];
  return kernels
    .filter((k) => !read.some((f) => f.name === k.name && f.line >= k.first && f.line <= k.end))
    .filter((k) => !located.some((x) => x.line >= k.first && x.line <= k.end))
    .map((k) => `${k.name} (line ${k.line})`);
}

describe('fuzz: mutated programs through apply and audit', () => {
  it.skipIf(!python)(`${RUNS} mutated programs: no crash, re-parse, only insertions, idempotent, no silent skip`, () => {
    const arb = fc.record({ seed: fc.nat(seeds.length - 1), mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }) });
    const cases: Case[] = fc.sample(arb, { numRuns: RUNS, seed: SEED }).map(({ seed, mutations }) => ({
      seed: seeds[seed]!.path,
      mutations,
      text: mutations.reduce(mutate, seeds[seed]!.text),
    }));
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-fuzz-'));
    const session = new RuleSession();
    const failures: string[] = [];
    try {
      const inputs = cases.map((c, i) => {
        const p = join(dir, `in${i}.py`);
        writeFileSync(p, c.text);
        return p;
      });
      const before = oracle(
        dir,
        inputs.map((input) => ({ input, output: null })),
      );
      const outputs: Array<string | null> = [];
      cases.forEach((c, i) => {
        const where = `${c.seed} ${JSON.stringify(c.mutations)}`;
        const fail = (what: string): void => {
          failures.push(`${where}: ${what}`);
        };
        outputs.push(null);
        const parsed = answer(() => parseModuleIsolated(c.text, 'fuzz.py'));
        if ('crash' in parsed) return fail(`parse: ${parsed.crash}`);
        const audit = answer(() => auditText(c.text, 'fuzz.py', PASSES, { session }));
        if ('crash' in audit) fail(`audit: ${audit.crash}`);
        const applied = answer(() => applyPasses(c.text, 'fuzz.py', PASSES, { session }));
        if ('crash' in applied) return fail(`apply: ${applied.crash}`);
        if (!before[i]!.valid) return;
        if ('value' in parsed) {
          const skipped = silentlySkipped(parsed.value, before[i]!.kernels);
          if (skipped.length > 0) fail(`kernels neither read nor reported: ${skipped.join(', ')}`);
        }
        if (!('value' in applied) || applied.value.text === c.text) return;
        const out = applied.value.text;
        const p = join(dir, `out${i}.py`);
        writeFileSync(p, out);
        outputs[i] = p;
        const again = answer(() => applyPasses(out, 'fuzz.py', PASSES, { session }));
        if ('crash' in again) return fail(`apply on the output: ${again.crash}`);
        if (!('value' in again)) fail(`apply on the output fails: ${again.diagnostics.map((d) => d.message).join('; ')}`);
        else if (again.value.text !== out) fail('apply is not idempotent (a second apply changes the output)');
        if ('value' in parsed) {
          const errorsIn = moduleErrors(parsed.value).length;
          const errorsOut = moduleErrors(parseModuleIsolated(out, 'fuzz.py')).length;
          if (errorsOut !== errorsIn) fail(`the output reads with ${errorsOut} errors, the input with ${errorsIn}`);
        }
      });
      const written = cases.map((_, i) => i).filter((i) => outputs[i] !== null);
      const after = oracle(
        dir,
        written.map((i) => ({ input: inputs[i]!, output: outputs[i]! })),
      );
      written.forEach((i, k) => {
        const where = `${cases[i]!.seed} ${JSON.stringify(cases[i]!.mutations)}`;
        if (!after[k]!.outputValid) failures.push(`${where}: Python does not parse the output`);
        else if (after[k]!.sameShape === false)
          failures.push(`${where}: the output is not the input plus insertions (Python reads another program)`);
      });
      // (What the run exercised: a run where Python reads few inputs, or apply changes few, checks little.)
      console.log(
        `fuzz programs: ${cases.length} cases, ${before.filter((b) => b.valid).length} valid Python, ${written.length} changed by apply; PTOLOG_SEED=${SEED}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(failures, `PTOLOG_SEED=${SEED}`).toEqual([]);
  });
});
