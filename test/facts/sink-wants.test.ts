import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../src/facts/extract.js';
import { type FactSink, type FactValue, MemorySink } from '../../src/facts/sink.js';
import { parseModule } from '../../src/frontend/index.js';

const TEXT = `import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, t: pl.Tile[[1, 4], pl.FP32]):
        x = pl.add(t, t)
        return x
`;

describe('a fact sink that does not want a relation', () => {
  it('gets no preorder or span facts (the extractor skips computing them), and the same other facts', () => {
    const all = new MemorySink();
    extractFacts(parseModule(TEXT, 't.py'), all);
    const rels = new Map<string, number>();
    const sink: FactSink = {
      add(rel: string, _t: readonly FactValue[]) {
        rels.set(rel, (rels.get(rel) ?? 0) + 1);
      },
      wants: (rel) => rel !== 'preorder' && rel !== 'span',
    };
    extractFacts(parseModule(TEXT, 't.py'), sink);
    expect(all.get('preorder').length).toBeGreaterThan(5);
    expect(all.get('span').length).toBeGreaterThan(5);
    expect(rels.has('preorder')).toBe(false);
    expect(rels.has('span')).toBe(false);
    for (const [rel, rows] of all.relations) if (rel !== 'preorder' && rel !== 'span') expect(rels.get(rel)).toBe(rows.length);
  });
});
