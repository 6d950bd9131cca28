/**
 * The id table against the facts: every binding and block id (rows of typed columns in the
 * table, objects only when asked for) stands for exactly what its `binding` / `block` facts say,
 * and the table holds more ids than one of its chunks.
 */

import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { type Entity, extractFacts, NodeTable } from '../../src/facts/extract.js';
import { MemorySink } from '../../src/facts/sink.js';
import { parseModule } from '../../src/frontend/index.js';
import { arbPrograms, programText } from '../../src/gen/arb.js';
import { orchestrationText } from '../../src/gen/large.js';
import type { FunctionDef, Stmt } from '../../src/ir/nodes.js';
import { runs as scaled } from '../runs.js';

/** The statement list `role` of `owner`. */
function listOf(owner: Entity, role: string): Stmt[] | undefined {
  if (role === 'then' && owner.kind === 'If') return owner.then;
  if (role === 'else' && owner.kind === 'If') return owner.orelse;
  if (role === 'body' && 'body' in owner) return owner.body;
  return undefined;
}

/** Checks every binding and block of `text`'s table against its facts; returns how many were checked. */
function checkTable(text: string): number {
  const m = parseModule(text, 'gen.py');
  const sink = new MemorySink();
  const table = extractFacts(m, sink);
  const spans = new Map(sink.get('span').map((r) => [r[0] as number, r]));
  const types = new Map(sink.get('declared_type').map((r) => [r[0] as number, r[2] as number]));
  const bad: string[] = [];
  const want = (ok: boolean, what: string, id: number): void => {
    if (!ok && bad.length < 10) bad.push(`${what} of ${id}`);
  };
  let checked = 0;
  for (const [id, func, name, kind, site] of sink.get('binding') as [number, number, string, string, number][]) {
    const b = table.get(id);
    want(b?.kind === 'Binding', 'kind', id);
    if (b?.kind !== 'Binding') continue;
    want(b.name === name, 'name', id);
    want(b.bindingKind === kind, 'bindingKind', id);
    want(b.site === table.get(site), 'site', id);
    want(b.func === table.get(func) && b.func?.kind === 'Function', 'func', id);
    want(b.start === spans.get(id)![1] && b.end === spans.get(id)![2], 'span', id);
    const t = types.get(id);
    want(b.type === (t === undefined ? null : table.get(t)), 'type', id);
    checked++;
  }
  for (const [bk, owner, role] of sink.get('block') as [number, number, string][]) {
    const k = table.get(bk);
    want(k?.kind === 'Block', 'kind', bk);
    if (k?.kind !== 'Block') continue;
    const o = table.get(owner)!;
    want(k.owner === o, 'owner', bk);
    want(k.role === role, 'role', bk);
    want(k.first === bk + 1, 'first', bk);
    want(k.stmts === listOf(o, role), 'stmts', bk);
    k.stmts.forEach((s, i) => {
      want(table.get(k.first + i) === s, 'statement', k.first + i);
      want(table.blockOfStmt(k.first + i) === bk, 'blockOfStmt', k.first + i);
    });
    checked++;
  }
  expect(bad).toEqual([]);
  expect(table.get(0)).toBeUndefined();
  expect(table.get(table.size + 1)).toBeUndefined();
  expect(table.get(table.size)).toBeDefined();
  return checked;
}

describe('the id table', () => {
  test.prop([arbPrograms({ maxDepth: 3, exprDepth: 2, maxStmts: 4 })], scaled(60))(
    'bindings and blocks stand for what their facts say',
    (ps) => {
      checkTable(programText(ps));
    },
  );

  it('holds more ids than a chunk (an orchestration function of 6,000 submits)', () => {
    const text = orchestrationText(6000);
    expect(checkTable(text)).toBeGreaterThan(6000);
  });

  it('gives ids in order and keeps each entity past a chunk boundary', () => {
    const t = new NodeTable();
    const f = { kind: 'Exit', func: {} as FunctionDef } as const;
    const n = 70_000;
    const ents = Array.from({ length: n }, () => ({ ...f }));
    expect(ents.every((e, i) => t.register(e) === i + 1)).toBe(true);
    expect(t.size).toBe(n);
    for (const i of [0, 65_535, 65_536, 65_537, n - 1]) expect(t.get(i + 1)).toBe(ents[i]);
  });
});
