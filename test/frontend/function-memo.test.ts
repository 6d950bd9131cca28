// The frontend's memo of functions parsed before (function-memo.ts): a parse of an edited text
// through the memo of the previous parse is the parse of that text from scratch (the same IR,
// spans, comments, problems), whatever the edits (characters typed or removed anywhere:
// decorators, imports, constants, helpers; lines added or removed before reused functions).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { type FunctionMemo, functionMemo } from '../../src/frontend/function-memo.js';
import { parseModuleIsolated } from '../../src/frontend/index.js';
import type { Module } from '../../src/ir/nodes.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TEXTS = [
  ...readdirSync(join(ROOT, 'examples'))
    .filter((f) => f.endsWith('.py'))
    .map((f) => join(ROOT, 'examples', f)),
  ...[
    'frontend/program_forms.py',
    'frontend/jit_forms.py',
    'frontend/comments.py',
    'expand_manual_phase_fence/enclosing_constants.py',
    'insert_comm_fence/nested_inline_notify.py',
    'cache_policy/func_attr_lines.py',
  ].map((f) => join(ROOT, 'specs', f)),
].map((f) => readFileSync(f, 'utf8'));

/** What a parse gives, as data (spans, comments, problems with their offsets and messages). */
function shown(m: Module): string {
  return JSON.stringify({
    constants: [...m.constants],
    programs: m.programs.map((p) => ({ ...p, constants: p.constants ? [...p.constants] : undefined })),
    problems: (m.problems ?? []).map((d) => [d.severity, d.code, d.message, d.location?.start, d.location?.end]),
    headerComments: m.headerComments ?? [],
    dynamics: m.dynamics ? [...m.dynamics] : [],
  });
}

const parse = (text: string, functions?: FunctionMemo): Module =>
  parseModuleIsolated(text, 'edited.py', functions ? { blocks: { functions } } : {});

/** Characters and lines an edit inserts: code, brackets and quotes, indentation, decorators, imports, comments. */
const PIECES = [
  ' ',
  'x',
  '1',
  '(',
  ')',
  '"',
  '#',
  ':',
  '\n',
  '    ',
  '\n    ',
  '\n        y = 1\n',
  '\n@pl.inline\n',
  'import os\n',
  'N = 4\n',
];
/** Edits of what decides how other functions read: constants, import spellings, helpers' decorators, a def's name. */
const SWAPS: [string, string][] = [
  ['= 4\n', '= 8\n'],
  ['= 64\n', '= 32\n'],
  [' as pl\n', ' as pq\n'],
  ['@pl.inline\n', '\n'],
  ['@pl.jit\n', '@pl.jit.incore\n'],
  ['\ndef ', '\n@pl.inline\ndef '],
  ['def ', 'def x'],
];
const edit = fc.oneof(
  fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), drop: fc.nat({ max: 3 }), insert: fc.constantFrom(...PIECES, '') }),
  fc.record({ swap: fc.constantFrom(...SWAPS), nth: fc.nat({ max: 3 }) }),
);

/** `text` after `e`: characters replaced at a relative offset, or the nth occurrence of a swap's text (wrapping round) replaced. */
function edited(text: string, e: { at: number; drop: number; insert: string } | { swap: [string, string]; nth: number }): string {
  if ('at' in e) {
    const at = Math.floor(e.at * text.length);
    return text.slice(0, at) + e.insert + text.slice(Math.min(text.length, at + e.drop));
  }
  const [from, to] = e.swap;
  const all: number[] = [];
  for (let i = text.indexOf(from); i >= 0; i = text.indexOf(from, i + 1)) all.push(i);
  if (all.length === 0) return text;
  const i = all[e.nth % all.length]!;
  return text.slice(0, i) + to + text.slice(i + from.length);
}

describe('function memo', () => {
  it('reuses the functions whose text did not change (an edit inside one function re-reads that one)', () => {
    const text = TEXTS[0]!;
    const first = functionMemo();
    parse(text, first);
    expect(first.next.size).toBeGreaterThan(0);
    const next = functionMemo(first.next);
    const i = text.lastIndexOf('[0, 0]') + 1;
    const changed = `${text.slice(0, i)} ${text.slice(i)}`;
    expect(shown(parse(changed, next))).toEqual(shown(parse(changed)));
    // (Every function but the edited one comes from the memo: one new key.)
    expect([...next.next.keys()].filter((k) => !first.next.has(k))).toHaveLength(1);
  });

  test.prop([fc.nat({ max: TEXTS.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 4 })], { numRuns: 200 })(
    'a parse through the previous parse’s memo is the parse from scratch',
    (which, edits) => {
      let text = TEXTS[which]!;
      let memo = functionMemo();
      parse(text, memo);
      for (const e of edits) {
        text = edited(text, e);
        const next = functionMemo(memo.next);
        expect(shown(parse(text, next))).toEqual(shown(parse(text)));
        memo = next;
      }
    },
    120_000,
  );
});
