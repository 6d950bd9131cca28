// The engine's bundle (dist/bundle/datalog.js, built by `npm run build`, which `npm test` runs
// first; bench/datalog runs it): one module, and the same answers as the sources.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as src from '../../src/datalog/index.js';

const bundle = resolve('dist/bundle/datalog.js');

const TC = `.decl edge(x: number, y: number)
.input edge
.decl path(x: number, y: number)
.output path
path(X, Y) :- edge(X, Y).
path(X, Z) :- path(X, Y), edge(Y, Z).
`;

describe('the engine bundle', () => {
  // `npm test` builds first: a missing bundle is a broken build (bin/ptolog.js would not start), not a reason to skip.
  it('is built', () => {
    expect(existsSync(bundle)).toBe(true);
    expect(existsSync(resolve('dist/bundle/cli.js'))).toBe(true);
    expect(existsSync(resolve('dist/bundle/worker.js'))).toBe(true);
  });

  it('is one module: it imports only Node built-ins', () => {
    const text = readFileSync(bundle, 'utf8');
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/gm)].map((m) => m[1]!);
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((s) => !s.startsWith('node:'))).toEqual([]);
  });

  it('evaluates and writes what the sources do (a closure large enough for its growing arrays and dense indexes)', async () => {
    const dl = (await import(pathToFileURL(bundle).href)) as typeof src;
    const edges: number[][] = [];
    let x = 42;
    const next = (): number => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % 400;
    };
    for (let i = 0; i < 1000; i++) edges.push([next(), next()]);
    const outputs: string[] = [];
    for (const engine of [src, dl]) {
      const { program } = engine.loadProgram([{ path: 'tc.dl', text: TC }]);
      const db = program.newDatabase();
      for (const e of edges) db.insert('edge', e);
      const result = engine.evaluate(program, db);
      const dir = mkdtempSync(join(tmpdir(), 'ptolog-bundle-'));
      engine.writeOutputs(result, dir);
      outputs.push(readFileSync(join(dir, 'path.csv'), 'utf8'));
    }
    expect(outputs[0]!.split('\n').length).toBeGreaterThan(50_000);
    expect(outputs[1]).toBe(outputs[0]);
  });
});
