// Runs one workload in this process (fresh per workload) and prints JSON timings and peak RSS.
// Usage: node worker.mjs <dist/bundle/datalog.js URL (or dist/datalog/index.js)> <rules.dl> <fact dir> <output dir> [<shipped rules dir>]
// With a shipped rules directory, `#include`s resolve as `ptolog run` resolves them (that
// directory, and `<ptolog/...>`).
import { performance } from 'node:perf_hooks';

const [, , distIndex, rules, factDir, outDir, shipped] = process.argv;
const dl = await import(distIndex);
const t0 = performance.now();
const { program } = dl.loadProgram([rules], undefined, shipped ? [shipped] : [], shipped ? { ptolog: shipped } : {});
const t0b = performance.now();
const db = program.newDatabase();
dl.readFactsDir(db, factDir, dl.relationsRead(program)); // only the inputs the outputs depend on
void db.relations; // the input relations are built from the rows read (part of loading)
const t1 = performance.now();
const result = dl.evaluate(program, db);
const t2 = performance.now();
dl.writeOutputs(result, outDir);
const t3 = performance.now();
const sizes = Object.fromEntries(program.relations.filter((r) => r.output).map((r) => [r.name, result.size(r.name)]));
console.log(
  JSON.stringify({
    rules: t0b - t0,
    load: t1 - t0,
    eval: t2 - t1,
    write: t3 - t2,
    total: t3 - t0,
    sizes,
    maxRssKB: process.resourceUsage().maxRSS,
  }),
);
