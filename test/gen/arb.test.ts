/** The program generator: valid names, and coverage of every construct it promises. */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbInCoreFunction, arbOrchestrationFunction, arbProgram, isValidName } from '../../src/gen/arb.js';
import type { Program } from '../../src/ir/nodes.js';
import { walkProgram } from '../../src/ir/visit.js';

function features(p: Program, into: Set<string>): void {
  for (const f of p.functions) {
    into.add(`func:${f.funcKind}`);
    for (const prm of f.params)
      if (prm.type) into.add(`type:${prm.type.kind}${prm.type.kind === 'TensorType' && prm.type.distributed ? ':dist' : ''}`);
    if (f.attrs.length > 0) into.add('func_attr');
  }
  walkProgram(p, {
    stmt: (s) => {
      into.add(`stmt:${s.kind}`);
      if (s.kind === 'For') into.add(`loop:${s.loopKind}${s.iterArgs.length > 0 ? ':iter' : ''}`);
      if (s.kind === 'Scope') into.add(`scope:${s.scope}`);
      if (s.kind === 'If' && s.orelse.length === 1 && s.orelse[0]!.kind === 'If') into.add('elif');
      if (s.kind === 'Assign' && s.value.kind === 'Call' && s.value.callee.kind === 'op' && s.value.callee.name === 'array.update_element')
        into.add('element-write');
      if (s.kind === 'Assign' && s.value.kind === 'Submit') into.add('submit');
      if (s.kind === 'Assign' && s.annotation) into.add('annotated');
    },
    expr: (e) => {
      into.add(`expr:${e.kind}`);
      if (e.kind === 'Call' && e.callee.kind === 'op') into.add(`op:${e.callee.name}`);
      if (e.kind === 'Call' && e.callee.kind === 'self') into.add('self-call');
      if (e.kind === 'Call' && e.callee.kind === 'other') into.add('other-call');
      if (e.kind === 'Submit' && e.kwargs.length > 0) into.add('submit-kwargs');
    },
  });
}

describe('program generator', () => {
  const samples = fc.sample(arbProgram({}), { numRuns: 300, seed: 7 });

  it('uses valid identifiers', () => {
    for (const p of samples) {
      walkProgram(p, {
        expr: (e) => {
          // `pl` (the SplitMode enum's module) and `range` (a deps= comprehension's iterable) are the DSL's own names.
          if (e.kind === 'Name' && e.id !== 'pl' && e.id !== 'range') expect(isValidName(e.id), e.id).toBe(true);
        },
      });
    }
  });

  it('covers every construct it promises', () => {
    const seen = new Set<string>();
    for (const p of samples) features(p, seen);
    const wanted = [
      'func:InCore',
      'func:Orchestration',
      'func:Opaque',
      'func_attr',
      'type:TensorType',
      'type:TensorType:dist',
      'type:ScalarType',
      'type:ArrayType',
      'type:TileType',
      'stmt:Assign',
      'stmt:ExprStmt',
      'stmt:Return',
      'stmt:Pass',
      'stmt:Break',
      'stmt:Continue',
      'stmt:If',
      'stmt:While',
      'stmt:For',
      'stmt:Scope',
      'elif',
      'element-write',
      'submit',
      'annotated',
      'loop:range',
      'loop:parallel',
      'loop:unroll',
      'loop:pipeline',
      'loop:spmd',
      'loop:while:iter',
      'loop:range:iter',
      'scope:manual',
      'scope:auto',
      'scope:at',
      'scope:spmd',
      'scope:cluster',
      'op:tile.store',
      'op:tensor.write',
      'op:pld.tile.get',
      'op:pld.tile.remote_store',
      'op:pld.tile.put',
      'op:pld.system.notify',
      'op:pld.system.wait',
      'op:system.cacheinvalid',
      'op:system.fence',
      'op:tensor.read',
      'op:tile.load',
      'op:set_cache_policy',
      'op:yield_',
      'self-call',
      'expr:Binary',
      'expr:Unary',
      'expr:Int',
      'expr:Float',
      'expr:Str',
      'expr:Bool',
      'expr:None',
      'expr:List',
      'expr:Tuple',
      'expr:Enum',
      'expr:Attr',
      'expr:Subscript',
      'expr:Submit',
      'expr:Dict',
      'other-call',
      'submit-kwargs',
    ];
    expect(wanted.filter((w) => !seen.has(w))).toEqual([]);
  });

  it('function arbitraries produce their kind', () => {
    for (const f of fc.sample(arbInCoreFunction(), { numRuns: 20, seed: 1 })) expect(f.funcKind).toBe('InCore');
    for (const f of fc.sample(arbOrchestrationFunction(), { numRuns: 20, seed: 1 })) expect(f.funcKind).toBe('Orchestration');
  });
});

describe('communication kernel generator', () => {
  it("writes pld.tile.put in put's own argument layout (dst, peer, src, stage), not remote_store's", async () => {
    const { arbCommProgram } = await import('../../src/gen/comm.js');
    const puts: string[][] = [];
    for (const p of fc.sample(arbCommProgram(), { numRuns: 200, seed: 5 })) {
      walkProgram(p, {
        expr: (e) => {
          if (e.kind === 'Call' && e.callee.kind === 'op' && e.callee.name === 'pld.tile.put')
            puts.push(e.args.map((a) => (a.kind === 'Name' ? a.id : a.kind)));
        },
      });
    }
    expect(puts.length).toBeGreaterThan(0);
    for (const args of puts) expect(args).toEqual(['win_a', 'peer', 'x', 't']);
  });
});
