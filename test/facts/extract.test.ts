import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadProgram } from '../../src/datalog/index.js';
import { extractFacts } from '../../src/facts/extract.js';
import { MemorySink } from '../../src/facts/sink.js';
import { parseModule } from '../../src/frontend/index.js';
import { rulesDir } from '../../src/passes/registry.js';

const KERNEL = `import pypto.language as pl
import pypto.language.distributed as pld

N = 4


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, t: pl.Tile[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32], out: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
        for i, (w,) in pl.range(0, N, 2, init_values=(win,)):
            if i > 0:
                w2 = pl.store(t, [0, i], w)
            else:
                break
            w3 = pl.yield_(w)
        pl.write(out, [0, 0], 1.0)
        return out
`;

function facts(text: string): { sink: MemorySink; ids: (needle: string) => number } {
  const m = parseModule(text, 'k.py');
  const sink = new MemorySink();
  extractFacts(m, sink);
  const ids = (needle: string): number => {
    const start = text.indexOf(needle);
    const row = sink.get('span').find((r) => r[1] === start && text.slice(start, r[2] as number).startsWith(needle));
    if (!row) throw new Error(`no node at ${needle}`);
    return row[0] as number;
  };
  return { sink, ids };
}

describe('fact extraction', () => {
  it('emits only relations declared in rules/schema.dl, and every declared relation is emittable', () => {
    const { sink } = facts(KERNEL);
    const schema = loadProgram([join(rulesDir(), 'schema.dl')]).program;
    const declared = new Map(schema.relations.filter((r) => r.input).map((r) => [r.name, r.kinds.length]));
    for (const [rel, rows] of sink.relations) {
      expect(declared.has(rel), `${rel} is not declared in schema.dl`).toBe(true);
      for (const row of rows) expect(row.length, rel).toBe(declared.get(rel));
    }
  });

  it('describes functions, parameters, directions and declared types', () => {
    const { sink } = facts(KERNEL);
    expect(sink.get('function').map((r) => [r[2], r[3]])).toEqual([['k', 'InCore']]);
    const names = new Map(sink.get('binding').map((r) => [r[0], r[2]]));
    const params = sink.get('param').map((r) => names.get(r[2]));
    expect(params).toEqual(['t', 'win', 'out']);
    const dirs = sink.get('param_direction').map((r) => [names.get(r[0]), r[1]]);
    expect(dirs).toContainEqual(['out', 'out']);
    const kinds = sink.get('declared_type').map((r) => [names.get(r[0]), r[1]]);
    expect(kinds).toEqual([
      ['t', 'Tile'],
      ['win', 'DistributedTensor'],
      ['out', 'Tensor'],
    ]);
  });

  it('gives loops their kind, bounds, constant trip count, iter-args, init values and results', () => {
    const { sink, ids } = facts(KERNEL);
    const loop = ids('for i');
    expect(sink.get('loop')).toContainEqual([loop, 'range']);
    expect(sink.get('trip_count')).toEqual([[loop, 2]]);
    expect(
      sink
        .get('loop_bound')
        .filter((r) => r[0] === loop)
        .map((r) => r[1]),
    ).toEqual(['start', 'stop', 'step']);
    const names = new Map(sink.get('binding').map((r) => [r[0], r[2]]));
    expect(sink.get('iter_arg').map((r) => names.get(r[2]))).toEqual(['w']);
    expect(sink.get('return_var').map((r) => [r[0], names.get(r[2])])).toEqual([[loop, 'w3']]);
  });

  it('resolves names to the latest binding', () => {
    const { sink, ids } = facts(KERNEL);
    const names = new Map(sink.get('binding').map((r) => [r[0], [r[2], r[3]]]));
    const store = ids('w2 = pl.store');
    const call = sink.get('stmt_value').find((r) => r[0] === store)![1];
    const dst = sink.get('arg').find((r) => r[0] === call && r[1] === 2)![2];
    const b = sink.get('ref').find((r) => r[0] === dst)![1];
    expect(names.get(b)).toEqual(['w', 'iter_arg']);
  });

  it('builds the control-flow graph: branches, back edges, break, return, exit', () => {
    const { sink, ids } = facts(KERNEL);
    const e = new Set(sink.get('cfg_edge').map((r) => `${r[1]}->${r[2]}`));
    const loop = ids('for i');
    const iff = ids('if i > 0');
    const store = ids('w2 = pl.store');
    const brk = ids('break');
    const yld = ids('w3 = pl.yield_');
    const write = ids('pl.write(out');
    const ret = ids('return out');
    const exit = sink.get('cfg_exit')[0]![1] as number;
    for (const edge of [
      `${loop}->${iff}`,
      `${iff}->${store}`,
      `${iff}->${brk}`,
      `${store}->${yld}`,
      `${yld}->${loop}`,
      `${loop}->${write}`,
      `${brk}->${write}`,
      `${write}->${ret}`,
      `${ret}->${exit}`,
    ])
      expect(e.has(edge), edge).toBe(true);
    expect(e.has(`${brk}->${yld}`)).toBe(false);
    expect(sink.get('cfg_entry')).toEqual([[sink.get('function')[0]![0], loop]]);
  });

  it('unrolls a deps= comprehension of known length (as PyPTO does at parse time); a symbolic one stays one entry', () => {
    const text = `import pypto.language as pl

N = 3
SLOTS = [0, 2]
K = len(SLOTS)


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4], pl.FP32], carry: pl.Array[N, pl.TASK_ID]):
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            a, t1 = pl.submit(self.k, x, deps=[carry[i] for i in range(N)])
            b, t2 = pl.submit(self.k, x, deps=[t1, [carry[i] for i in range(1, 7, 2) if i != 3]])
            c, t3 = pl.submit(self.k, x, deps=[carry[s] for s in SLOTS])
            d, t4 = pl.submit(self.k, x, deps=[carry[i] for i in range(K)])
`;
    const { sink, ids } = facts(text);
    const deps = (needle: string): string[] => {
      const c = ids(needle);
      return sink
        .get('submit_dep')
        .filter((r) => r[0] === c)
        .sort((p, q) => (p[1] as number) - (q[1] as number))
        .map((r) => {
          const s = sink.get('span').find((x) => x[0] === r[2])!;
          const kids = sink
            .get('expr_child')
            .filter((x) => x[0] === r[2])
            .map((x) => x[1]);
          const value = kids.map((k) => sink.get('const_value').find((x) => x[0] === k)?.[1]).find((v) => v !== undefined);
          return `${text.slice(s[1] as number, s[2] as number)}=${value ?? '?'}`;
        });
    };
    expect(deps('pl.submit(self.k, x, deps=[carry[i] for i in range(N)])')).toEqual(['carry[i]=0', 'carry[i]=1', 'carry[i]=2']);
    expect(deps('pl.submit(self.k, x, deps=[t1,')).toEqual(['t1=?', 'carry[i]=1', 'carry[i]=5']);
    expect(deps('pl.submit(self.k, x, deps=[carry[s] for s in SLOTS])')).toEqual(['carry[s]=0', 'carry[s]=2']);
    // A bound ptolog cannot evaluate: the comprehension is one entry of unknown length.
    expect(deps('pl.submit(self.k, x, deps=[carry[i] for i in range(K)])')).toEqual(['[carry[i] for i in range(K)]=?']);
  });

  it('gives every statement, and nothing else, a stmt_span row equal to its span row', () => {
    const { sink } = facts(KERNEL);
    const stmts = sink
      .get('stmt')
      .map((r) => r[0])
      .sort();
    const spans = new Map(sink.get('span').map((r) => [r[0], r.join(',')]));
    expect(
      sink
        .get('stmt_span')
        .map((r) => r[0])
        .sort(),
    ).toEqual(stmts);
    for (const r of sink.get('stmt_span')) expect(r.join(','), `statement ${r[0]}`).toBe(spans.get(r[0]));
  });

  it('emits func_attr for every key of every pl.func_attr line of the prologue (PyPTO merges them)', () => {
    const text = KERNEL.replace(
      '        for i, (w,)',
      '        pl.func_attr({"split": 77})\n        pl.func_attr({"cache_policy": [(0, 1)], "tag": "t"})\n        for i, (w,)',
    );
    const { sink, ids } = facts(text);
    expect(sink.get('func_attr').map((r) => [r[1], r[2]])).toEqual([
      ['split', ids('77')],
      ['cache_policy', ids('[(0, 1)]')],
      ['tag', ids('"t"')],
    ]);
    // The lines are the function's attributes, not statements of its body.
    expect(sink.get('call').filter((r) => String(r[1]).includes('func_attr'))).toEqual([]);
  });

  it('marks statements written on their header line', () => {
    const { sink, ids } = facts(KERNEL.replace('if i > 0:\n                w2', 'if i > 0: w2'));
    expect(sink.get('inline_body').map((r) => r[0])).toEqual([ids('w2 = pl.store')]);
  });
});

describe('ptolog facts', () => {
  it('writes Soufflé .facts files that `ptolog run` evaluates to what the library derives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-facts-'));
    const out = mkdtempSync(join(tmpdir(), 'ptolog-out-'));
    const io = { stdout: (): void => {}, stderr: (): void => {} };
    expect(await main(['facts', 'examples/ring_allreduce.py', '--out', dir], io)).toBe(0);
    expect(readdirSync(dir)).toContain('cfg_edge.facts');
    expect(readFileSync(join(dir, 'function.facts'), 'utf8')).toMatch(/\tring_step\tInCore\n/);
    expect(await main(['run', join(rulesDir(), 'insert_comm_fence', 'insert_comm_fence.dl'), '-F', dir, '-D', out], io)).toBe(0);
    const csv = readFileSync(join(out, 'insert_after.csv'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[2]);
    expect(csv.sort()).toEqual(['cacheinvalid_all', 'fence']);
  });
});
