/**
 * `explain`'s legend maps to places in the file exactly the values of id-typed columns
 * (NodeId, StmtId, BlockId in rules/schema.dl), never counts held in plain number columns.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProgram } from '../../src/datalog/index.js';
import { rulesDir } from '../../src/passes/registry.js';
import { run } from '../cli/helpers.js';

/** The legend entries (`id = description`) of every proof in explain's output. */
function legend(out: string): Map<number, string> {
  const m = new Map<number, string>();
  for (const line of out.split('\n')) {
    const hit = /^ {4}(\d+) = (.*)$/.exec(line);
    if (hit) m.set(Number(hit[1]), hit[2]!);
  }
  return m;
}

describe('explain legend', () => {
  it('maps no count (array_size, positive_trips, benefit) to a node, and names the blocks', async () => {
    const r = await run(['explain', 'examples/phase_fence.py:41']);
    expect(r.code).toBe(0);
    // The counts the proof rests on: array_size(105, 8), positive_trips(64, 8), benefit(64, 105, 8, 8, 48).
    expect(r.out).toContain('array_size(105, 8)');
    expect(r.out).toContain('benefit(64, 105, 8, 8, 48)');
    const l = legend(r.out);
    expect(l.has(8)).toBe(false);
    expect(l.has(48)).toBe(false);
    // The ids stay: the loop, the variable, and the blocks of stmt(_, _, bk, _) and block(bk, ...).
    expect(l.get(64)).toMatch(/^41:13 `for branch in pl\.parallel/);
    expect(l.get(105)).toBe('40:17 variable stage_a_done');
    expect(l.get(61)).toBe('body of 34:9 `with pl.manual_scope():`');
    expect(l.get(58)).toBe('body of function main');
  });

  it('the schema declares the id columns with id types and the counts as plain numbers', () => {
    const p = loadProgram([join(rulesDir(), 'lib.dl')]).program;
    const types = (rel: string): string[] => p.relation(rel)!.types;
    expect(types('stmt')).toEqual(['StmtId', 'symbol', 'BlockId', 'number']);
    expect(types('block')).toEqual(['BlockId', 'NodeId', 'symbol']);
    expect(types('trip_count')).toEqual(['StmtId', 'number']);
    expect(types('const_value')).toEqual(['NodeId', 'number']);
    expect(types('block_size')).toEqual(['BlockId', 'number']);
  });
});
