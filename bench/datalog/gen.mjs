// Writes the benchmark fact files: a chain, a random graph and a complete binary tree.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Deterministic PRNG (mulberry32). */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generate(outDir, opts = {}) {
  const chainN = opts.chainN ?? 2000;
  const randNodes = opts.randNodes ?? 10000;
  const randEdges = opts.randEdges ?? 10000;
  const treeDepth = opts.treeDepth ?? 10;
  const dirs = {};
  const write = (name, rel, lines) => {
    const d = join(outDir, name);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, `${rel}.facts`), `${lines.join('\n')}\n`);
    dirs[name] = d;
  };
  const chain = [];
  for (let i = 1; i < chainN; i++) chain.push(`${i}\t${i + 1}`);
  write('chain', 'edge', chain);
  const r = rng(42);
  const seen = new Set();
  const rand = [];
  while (rand.length < randEdges) {
    const a = Math.floor(r() * randNodes);
    const b = Math.floor(r() * randNodes);
    const k = `${a}\t${b}`;
    if (seen.has(k)) continue;
    seen.add(k);
    rand.push(k);
  }
  write('random', 'edge', rand);
  const tree = [];
  const nodes = 2 ** (treeDepth + 1) - 1;
  for (let c = 2; c <= nodes; c++) tree.push(`${c}\t${c >> 1}`);
  write('tree', 'parent', tree);
  const groups = opts.aggGroups ?? 1000;
  const perGroup = opts.aggPerGroup ?? 300;
  const p = [];
  const q = [];
  for (let w = 0; w < groups; w++) {
    for (let x = 0; x < perGroup; x++) {
      p.push(`${w}\t${x}`);
      q.push(`${w}\t${(w * 7919 + x * 104729) % 100000}`);
    }
  }
  write('agg', 'p', p);
  writeFileSync(join(dirs.agg, 'q.facts'), `${q.join('\n')}\n`);
  return dirs;
}
