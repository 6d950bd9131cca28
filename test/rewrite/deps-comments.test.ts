/**
 * replace_deps on a deps list written over several lines keeps the list's comments (issue 34,
 * item 14): the list becomes the barrier's name, the comments stay inside the brackets.
 */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyPasses } from '../../src/passes/pipeline.js';
import { passByName } from '../../src/passes/registry.js';
import { depsKeepingComments } from '../../src/rewrite/rewrite.js';
import { session } from '../session.js';

const example = readFileSync(fileURLToPath(new URL('../../examples/phase_fence.py', import.meta.url)), 'utf8');
const pass = passByName('expand-manual-phase-fence')!;
const applyOnce = (text: string): string => applyPasses(text, 't.py', [pass], { session }).text;

describe('replace_deps keeps comments', () => {
  it('keeps the comments of a multi-line deps list, and a second apply changes nothing', () => {
    const list = '[\n                    stage_a_done,  # all of stage A\n                    # (one barrier)\n                ]';
    const text = example.replace('deps=[stage_a_done]', `deps=${list}`);
    expect(text).not.toBe(example);
    const once = applyOnce(text);
    expect(once).toContain('deps=[phase_fence_barrier_0_tid  # all of stage A\n                    # (one barrier)\n                ])');
    expect(once).toContain('pl.system.task_dummy(deps=[stage_a_done])');
    expect(applyOnce(once)).toBe(once);
  });

  it("builds the list text: first comment after the name, the others and `]` at their lines' indentation", () => {
    const t = 'f(deps=[\n    a,  # c\n    "#no",\n    b,  # d\n  ])';
    const start = t.indexOf('[');
    const end = t.lastIndexOf(']') + 1;
    expect(depsKeepingComments(t, start, end, 'b0', '\n')).toBe('[b0  # c\n    # d\n  ]');
    expect(depsKeepingComments('[a, "#"]', 0, 8, 'b0', '\n')).toBe('[b0]');
    expect(depsKeepingComments('[a,  # c\r\n]', 0, 11, 'b0', '\r\n')).toBe('[b0  # c\r\n]');
  });
});
