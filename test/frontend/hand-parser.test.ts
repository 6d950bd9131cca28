/**
 * The hand-written DSL parser (hand-stmt.ts) against the Ohm grammar + semantics, the
 * reference: on every piece the hand parser accepts it builds the IR the grammar builds (deep
 * equal, spans and key order included); it accepts nothing the grammar rejects or the
 * semantics reports; and where it declines, the grammar's diagnostics come out unchanged.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Reporter } from '../../src/frontend/build.js';
import { handMatch } from '../../src/frontend/hand-stmt.js';
import { parseModuleIsolated } from '../../src/frontend/index.js';
import { type Chunk, emitRanges, OffsetMap } from '../../src/frontend/layout.js';
import { setGroupCache } from '../../src/frontend/program.js';
import { scanLines } from '../../src/frontend/scan.js';
import { convert, pyptoGrammar } from '../../src/frontend/semantics.js';
import { arbPrograms, programText } from '../../src/gen/arb.js';
import { commKernelText, orchestrationText } from '../../src/gen/large.js';
import { arbRespelling, respell } from '../../src/gen/respell.js';
import type { Module } from '../../src/ir/nodes.js';
import { DiagnosticError } from '../../src/report/diagnostic.js';
import { SourceText } from '../../src/report/source.js';
import { runs as scaled } from '../runs.js';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

function pyFiles(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...pyFiles(p));
    else if (f.endsWith('.py')) out.push(p);
  }
  return out;
}

const corpus = [...pyFiles(join(root, 'specs')), ...pyFiles(join(root, 'examples'))].sort();

/** Everything parseModuleIsolated gives, as text: IR (spans, key order), constants, diagnostics. */
function serial(m: Module): string {
  return JSON.stringify(
    {
      programs: m.programs,
      constants: [...m.constants],
      problems: (m.problems ?? []).map((d) => ({ ...d, location: d.location ? [d.location.start, d.location.end] : null })),
    },
    (k, v: unknown) => (k === 'source' ? undefined : v instanceof Map ? [...v] : v),
  );
}

/** The module read with the hand parser and with the grammar only (no statement-group cache, so every statement is read). */
function both(text: string): [string, string] {
  setGroupCache(false);
  try {
    return [serial(parseModuleIsolated(text, 'm.py')), serial(parseModuleIsolated(text, 'm.py', { grammarOnly: true }))];
  } finally {
    setGroupCache(true);
  }
}

const throwing: Reporter = {
  unsupported: (_span, message) => {
    throw new DiagnosticError([{ severity: 'error', code: 'unsupported-construct', message }]);
  },
  syntax: (_span, message) => {
    throw new DiagnosticError([{ severity: 'error', code: 'syntax-error', message }]);
  },
};

/** Every function body of `text` (lines after a `def` line, deeper than it) as a pre-tokenized chunk. */
function bodyChunks(text: string): Chunk[] {
  const source = new SourceText('m.py', text);
  const t = scanLines(text);
  const out: Chunk[] = [];
  for (let l = 0; l + 1 < t.count; l++) {
    if (!/^def\s/.test(text.slice(t.start[l]!, t.end[l]!)) || t.indent[l + 1]! <= t.indent[l]!) continue;
    let e = l + 1;
    while (e < t.count && t.indent[e]! > t.indent[l]!) e++;
    try {
      out.push(emitRanges(source, t, [l + 1, e], t.indent[l + 1]!));
    } catch {
      // An inconsistent dedent: not a chunk either parser sees.
    }
  }
  return out;
}

/** The grammar's reading of a chunk: its IR as JSON, or 'rejected' (no match, or a reported construct). */
function ohmReading(chunk: Chunk, ellipsisOk: boolean): string {
  let m;
  try {
    m = pyptoGrammar().match(chunk.out, 'Chunk');
  } catch (e) {
    // Nested too deeply for one match: the parser splits such text first (nesting.ts).
    if (e instanceof RangeError) return 'too deep';
    throw e;
  }
  if (m.failed()) return 'rejected';
  try {
    return JSON.stringify(convert(m, { map: chunk.map, report: throwing, constants: new Map(), ellipsisOk }));
  } catch (e) {
    if (e instanceof DiagnosticError) return 'rejected';
    throw e;
  }
}

/** The grammar's reading of a header chunk as `rule` (as ohmReading). */
function ohmRule(chunk: Chunk, rule: string): string {
  const m = pyptoGrammar().match(chunk.out, rule);
  if (m.failed()) return 'rejected';
  try {
    return JSON.stringify(convert(m, { map: chunk.map, report: throwing, constants: new Map(), ellipsisOk: chunk.out.includes('...') }));
  } catch (e) {
    if (e instanceof DiagnosticError) return 'rejected';
    throw e;
  }
}

/** Checks one chunk: the hand parser gives the grammar's IR or declines; returns whether it accepted. */
function sameAsOhm(chunk: Chunk, ellipsisOk = chunk.out.includes('...')): boolean {
  const hand = handMatch(chunk, 'Chunk', { report: throwing, constants: new Map(), ellipsisOk });
  const ref = ohmReading(chunk, ellipsisOk);
  if (hand === undefined || ref === 'too deep') return false;
  expect(JSON.stringify(hand)).toBe(ref);
  return true;
}

describe('hand-written parser = Ohm grammar', () => {
  it('reads every spec and example module as the grammar does (IR with spans, diagnostics)', () => {
    expect(corpus.length).toBeGreaterThan(100);
    for (const f of corpus) {
      const text = readFileSync(f, 'utf8');
      const [hand, ohm] = both(text);
      expect(hand, f).toBe(ohm);
    }
  });

  it("accepts most function bodies of the specs and examples, with the grammar's IR", () => {
    let accepted = 0;
    let total = 0;
    for (const f of corpus) {
      for (const c of bodyChunks(readFileSync(f, 'utf8'))) {
        total++;
        if (sameAsOhm(c)) accepted++;
      }
    }
    expect(total).toBeGreaterThan(100);
    // Bodies it declines hold errors or constructs it leaves to the grammar (a host SubWorker's Python).
    expect(accepted / total).toBeGreaterThan(0.85);
  });

  it('reads the program and function headers of the specs and examples as the grammar does', () => {
    let accepted = 0;
    let total = 0;
    for (const f of corpus) {
      const text = readFileSync(f, 'utf8');
      const source = new SourceText('m.py', text);
      const t = scanLines(text);
      for (let l = 0; l < t.count; l++) {
        const line = text.slice(t.start[l]!, t.end[l]!);
        const rule = /^def\s/.test(line) ? 'FuncHeader' : /^class\s/.test(line) ? 'ProgramHeader' : null;
        if (!rule) continue;
        let g = l;
        while (g > 0 && t.indent[g - 1] === t.indent[l] && text.charCodeAt(t.start[g - 1]!) === 64) g--;
        if (rule === 'ProgramHeader' && g === l) continue;
        const chunk = emitRanges(source, t, [g, l + 1], t.indent[l]!);
        const ref = ohmRule(chunk, rule);
        const hand = handMatch(chunk, rule, { report: throwing, constants: new Map(), ellipsisOk: chunk.out.includes('...') });
        total++;
        if (hand === undefined) continue;
        accepted++;
        expect(JSON.stringify(hand), `${f}:${line}`).toBe(ref);
      }
    }
    expect(total).toBeGreaterThan(300);
    expect(accepted / total).toBeGreaterThan(0.9);
  });

  it('accepts the generated large kernels (every statement unique)', () => {
    for (const text of [commKernelText(300, 'flat', true), commKernelText(200, 'nested', true), orchestrationText(100)]) {
      const chunks = bodyChunks(text);
      expect(chunks.length).toBeGreaterThan(0);
      for (const c of chunks) expect(sameAsOhm(c)).toBe(true);
    }
  });

  test.prop([arbPrograms({ maxDepth: 3, exprDepth: 3, maxStmts: 4 }), arbRespelling], scaled(30))(
    'generated programs (respelled): every body accepted, same IR; same module',
    (programs, r) => {
      const text = respell(programText(programs), r);
      for (const c of bodyChunks(text)) expect(sameAsOhm(c)).toBe(true);
      const [hand, ohm] = both(text);
      expect(hand).toBe(ohm);
    },
  );

  const seeds = corpus.filter((f) => f.includes('examples')).map((f) => readFileSync(f, 'utf8'));
  const edit = fc.constantFrom(
    '(',
    ')',
    '[',
    ']',
    '{',
    '}',
    ':',
    ',',
    '=',
    '==',
    '.',
    '...',
    '"',
    "'",
    '\\',
    '\n',
    ' ',
    '@',
    '*',
    '**',
    '-',
    '+=',
    'x',
    '0',
    '1.5',
    '1e',
    '0x',
    'if ',
    ' else ',
    'for ',
    ' in ',
    'not ',
    ' is ',
    'lambda ',
    ':=',
    'r"a"',
    'b"a"',
    'f"a"',
    'yield ',
    'await ',
    'del ',
    '\t',
    ';',
    '# c',
    '\x01',
    '\x02',
    '\x03',
    'é',
    'ﬁ',
    'ｉｆ',
    '·',
    '→',
    '\u0301',
    '"""',
    'as ',
    'with ',
    'while ',
  );
  test.prop([fc.nat(seeds.length - 1), fc.nat(), fc.nat(3), edit], scaled(100))(
    'edited examples: the same IR or the same diagnostics either way',
    (k, at, del, ins) => {
      const src = seeds[k]!;
      const i = at % (src.length + 1);
      const text = src.slice(0, i) + ins + src.slice(Math.min(src.length, i + del));
      const [hand, ohm] = both(text);
      expect(hand).toBe(ohm);
    },
  );

  it('declines what the grammar rejects or the semantics reports (the grammar then reports it)', () => {
    const bad = [
      'x = (1,\n',
      'x = a if b else c\n',
      'x += 1\n',
      'del x\n',
      'x = [a for a in b for c in d]\n',
      'x = {1, 2}\n',
      'x = f(*a)\n',
      'x = lambda: 1\n',
      'x = 0x\n',
      'x = 1j\n',
      'x = f"a"\n',
      'x = a @ b\n',
      'a < b < c\n',
      'x = y = 1\n',
      'x: int\n',
      'while c:\n\x01pass\n\x02else:\n\x01pass\n\x02',
      'x = a[1:2:3]\n',
      'for x in y:\n\x01pass\n\x02else:\n\x01pass\n\x02',
      'with a as (b, c):\n\x01pass\n\x02',
      'x = ...\n',
      'x = +1\n',
      'x = →\n',
      'x = a→b\n',
      'x = \x03\n',
      'f(a=1, b)\n',
      'return\n\x01x\n',
      'x = 1 if\n',
      'try:\n\x01pass\n\x02',
    ];
    for (const text of bad) {
      const chunk = emitChunkOf(text);
      expect(handMatch(chunk, 'Chunk', { report: throwing, constants: new Map() }), JSON.stringify(text)).toBeUndefined();
    }
    // The fallback keeps the grammar's located message.
    const mod = `import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n    def k(self, x: pl.Scalar[pl.INT32]):\n        y = (x +\n        return y\n`;
    const [hand, ohm] = both(mod);
    expect(hand).toBe(ohm);
    expect(hand).toContain('syntax-error');
  });

  it('accepts a lone ... only where the body allows it', () => {
    const chunk = emitChunkOf('...\n');
    expect(handMatch(chunk, 'Chunk', { report: throwing, constants: new Map(), ellipsisOk: false })).toBeUndefined();
    expect(sameAsOhm(chunk, true)).toBe(true);
  });
});

/** A chunk of pre-tokenized text taken as it is (offsets map one to one). */
function emitChunkOf(out: string): Chunk {
  const map = new OffsetMap();
  map.add(0, 0, out.length);
  return { out, map };
}
