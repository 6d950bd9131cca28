/**
 * A streaming parse (ParseOptions.streaming) reads large blocks as fact extraction reaches them:
 * its facts, ids and kept nodes are those of a whole parse; its placeholders are parsed in place;
 * wherever only a whole parse reports exactly (an error in a lazily read block, `a; b`) it is
 * abandoned and the pipeline reads the module whole, with the same results.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { extractFacts, extractFactsCounted, type Keep, NO_FACTS } from '../../src/facts/extract.js';
import { MemorySink } from '../../src/facts/sink.js';
import { type LazySizes, parseModule, parseModuleIsolated, StreamAbandoned } from '../../src/frontend/index.js';
import { checkedChunk } from '../../src/frontend/lazy-blocks.js';
import { arbPrograms, programText } from '../../src/gen/arb.js';
import { commKernelText, orchestrationText } from '../../src/gen/large.js';
import { structurallyEqual } from '../../src/ir/equal.js';
import { analyzeReleased } from '../../src/passes/analyze.js';
import { applyPasses, auditReport, type RunOptions } from '../../src/passes/pipeline.js';
import { PASSES, passByName } from '../../src/passes/registry.js';
import { type Diagnostic, DiagnosticError } from '../../src/report/diagnostic.js';
import { sampled, runs as scaled } from '../runs.js';
import { session } from '../session.js';
import { factLines } from './fact-lines.js';

/** Every block of three statements or more read lazily, one statement group per chunk. */
const TINY: LazySizes = { minGroups: 3, chunkGroups: 1 };
/** No block read lazily (a whole parse, through the same code). */
const NONE: LazySizes = { minGroups: Number.MAX_SAFE_INTEGER };

/** A kernel whose body is `n` statements (`line(i)` each), in an InCore function. */
function kernel(n: number, line: (i: number) => string): string {
  const body = Array.from({ length: n }, (_, i) => `        ${line(i)}`);
  return [
    'import pypto.language as pl',
    '',
    '',
    '@pl.program',
    'class K:',
    '    @pl.function(type=pl.FunctionType.InCore)',
    '    def f(self, t: pl.Tensor[[8, 8], pl.FP32]):',
    ...body,
    '',
  ].join('\n');
}

const loads = (i: number): string => `x${i} = pl.load(t, [0, ${i % 8}], [1, 8])`;

describe('a streaming parse', () => {
  test.prop([arbPrograms({ maxDepth: 3, exprDepth: 2, maxStmts: 6 })], scaled(80))(
    'gives the facts and ids of a whole parse, and a keeping table the same nodes',
    (ps) => {
      const text = programText(ps);
      const whole = new MemorySink();
      const table = extractFacts(parseModule(text, 'gen.py'), whole);
      const streamed = new MemorySink();
      const ids = extractFactsCounted(parseModuleIsolated(text, 'gen.py', { streaming: TINY }), streamed, { collect: () => {} });
      expect(ids).toBe(table.size);
      expect(factLines(streamed)).toEqual(factLines(whole));
      const keep = (id: number): Keep => (id % 3 === 0 ? 'node' : id % 3 === 1 ? 'span' : 'none');
      const a = extractFacts(parseModule(text, 'gen.py'), NO_FACTS, { keep });
      const b = extractFacts(parseModuleIsolated(text, 'gen.py', { streaming: TINY }), NO_FACTS, { keep, consume: { collect: () => {} } });
      expect(b.size).toBe(a.size);
      for (let id = 1; id <= a.size; id++) expect(b.get(id), `id ${id}`).toEqual(a.get(id));
    },
  );

  it('holds a placeholder per chunk between its first and last chunk, each parsed in place by `ensure`', () => {
    const text = kernel(10, loads);
    const whole = parseModule(text, 'k.py').programs[0]!.functions[0]!.body;
    const m = parseModuleIsolated(text, 'k.py', { streaming: { minGroups: 9, chunkGroups: 3 } });
    const body = m.programs[0]!.functions[0]!.body;
    expect(body).toHaveLength(10);
    // Chunks [0, 3) and [9, 10) parsed; [3, 6) and [6, 9) one placeholder each.
    for (const i of [0, 1, 2, 9]) expect(structurallyEqual(body[i]!, whole[i]!)).toBe(true);
    expect(body[3]).toBe(body[5]);
    expect(body[6]).toBe(body[8]);
    expect(body[3]).not.toBe(body[6]);
    expect(body[4]!.kind).toBe('Pass');
    m.pending!.ensure(body, 4); // (from the middle of its chunk)
    for (let i = 3; i < 6; i++) expect(structurallyEqual(body[i]!, whole[i]!)).toBe(true);
    expect(body[6]!.kind).toBe('Pass');
    m.pending!.ensure(body, 6);
    for (let i = 0; i < 10; i++) expect(structurallyEqual(body[i]!, whole[i]!)).toBe(true);
    // Below its size a block is parsed whole.
    const small = parseModuleIsolated(text, 'k.py', { streaming: { minGroups: 11, chunkGroups: 3 } });
    expect(small.programs[0]!.functions[0]!.body.every((s, i) => structurallyEqual(s, whole[i]!))).toBe(true);
  });

  it('reads a block holding `;` whole (a group may be several statements there)', () => {
    const text = kernel(12, (i) => (i === 7 ? 'a = 1; b = 2' : loads(i)));
    const m = parseModuleIsolated(text, 'k.py', { streaming: TINY });
    const body = m.programs[0]!.functions[0]!.body;
    expect(body).toHaveLength(13);
    expect(body.every((s) => s.kind === 'Assign')).toBe(true);
  });

  it('is abandoned at an error in a lazily read chunk, which a whole parse reports', () => {
    const text = kernel(12, (i) => (i === 6 ? 'x6 = = 1' : loads(i)));
    const whole = parseModuleIsolated(text, 'k.py');
    expect(whole.problems!.some((d) => d.severity === 'error')).toBe(true);
    const m = parseModuleIsolated(text, 'k.py', { streaming: TINY });
    expect(m.problems!.some((d) => d.severity === 'error')).toBe(false); // (not parsed yet)
    expect(() => extractFactsCounted(m, NO_FACTS, { collect: () => {} })).toThrow(StreamAbandoned);
  });
});

describe('what abandons a streaming parse', () => {
  const stmt = { kind: 'Pass', start: 0, end: 0 } as const;

  it('a located error or another statement count abandons it; any other exception is a bug, thrown as it is', () => {
    expect(checkedChunk(1, () => [stmt])).toEqual([stmt]);
    expect(() => checkedChunk(2, () => [stmt])).toThrow(StreamAbandoned);
    const located = (): never => {
      throw new DiagnosticError([{ severity: 'error', code: 'syntax-error', message: 'expected an expression' }]);
    };
    expect(() => checkedChunk(1, located)).toThrow(/streaming parse abandoned: expected an expression/);
    const bug = (): never => {
      throw new TypeError('a bug');
    };
    expect(() => checkedChunk(1, bug)).toThrow(TypeError);
  });

  it('the generated kernels stream (their analysis is never redone on a whole parse); one with an error in a lazily read block does not', () => {
    const streamed = (text: string, pass: string, sizes: LazySizes = {}): boolean =>
      analyzeReleased((s) => parseModuleIsolated(text, 'big.py', s ? { streaming: sizes } : {}), passByName(pass)!.entry, [], { session })
        .streamed;
    // At the default sizes: a body of 6,000 statements is read lazily (it holds no `pass` but its placeholders).
    const body = parseModuleIsolated(commKernelText(6_000), 'big.py', { streaming: true }).programs[0]!.functions[0]!.body;
    expect(body.filter((st) => st.kind === 'Pass').length).toBeGreaterThan(1_000);
    expect(streamed(commKernelText(6_000), 'insert-comm-fence')).toBe(true);
    expect(streamed(orchestrationText(3_000), 'expand-manual-phase-fence', { minGroups: 64, chunkGroups: 16 })).toBe(true);
    // (Line 3,000 of the body: in a chunk read lazily, not in the first or last one.)
    const lines = commKernelText(6_000).split('\n');
    const at = lines.findIndex((l, i) => i > 3_000 && l.trim().startsWith('x'));
    lines[at] = lines[at]!.replace(/=.*/, '= = 1');
    const broken = lines.join('\n');
    expect(streamed(broken, 'insert-comm-fence')).toBe(false);
  });
});

describe('the pipeline on a streaming parse', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));

  /** What a run gives, comparable: diagnostics by code, place, message and fix; the output text. */
  function outcome(text: string, path: string, lazyBlocks: LazySizes): string {
    const opts: RunOptions = { session, lazyBlocks };
    const key = (ds: readonly Diagnostic[]): string =>
      ds.map((d) => [d.severity, d.code, d.location?.start, d.location?.end, d.message, d.fix ?? ''].join('|')).join('\n');
    const run = (f: () => string): string => {
      try {
        return f();
      } catch (e) {
        if (e instanceof DiagnosticError) return `error:\n${key(e.diagnostics)}`;
        throw e;
      }
    };
    const audit = run(() => {
      const r = auditReport(text, path, PASSES, opts);
      return `${key(r.readErrors)}\n--\n${key(r.findings)}`;
    });
    const apply = run(() => {
      const r = applyPasses(text, path, PASSES, opts);
      return `${r.text}\n--\n${key(r.warnings)}\n--\n${key(r.errors)}`;
    });
    return `${audit}\n==\n${apply}`;
  }

  it('audits and rewrites the specs and examples as a whole parse does', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const n of readdirSync(dir)) {
        const p = join(dir, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.py')) files.push(p);
      }
    };
    walk(join(root, 'specs'));
    walk(join(root, 'examples'));
    expect(files.length).toBeGreaterThan(100);
    // Every fourth file (sorted) in npm test, all of them in npm run test:deep (both run in CI).
    for (const f of sampled(files.sort(), 4)) {
      const text = readFileSync(f, 'utf8');
      const path = relative(root, f);
      expect(outcome(text, path, TINY), path).toBe(outcome(text, path, NONE));
    }
  }, 300_000);

  it('reports an error in a lazily read block, and a note about a number there, as a whole parse does', () => {
    const broken = kernel(12, (i) => (i === 6 ? 'x6 = = 1' : loads(i)));
    expect(outcome(broken, 'k.py', TINY)).toBe(outcome(broken, 'k.py', NONE));
    expect(outcome(broken, 'k.py', TINY)).toContain('syntax-error');
    const inexact = kernel(12, (i) => (i === 6 ? 'x6 = pl.load(t, [0, 0], [1, 10**19])' : loads(i)));
    expect(outcome(inexact, 'k.py', TINY)).toBe(outcome(inexact, 'k.py', NONE));
    expect(outcome(inexact, 'k.py', TINY)).toContain('inexact-number');
  });
});
