#!/usr/bin/env node
// The mutant table of docs/testing.md: for each mutant of scripts/mutants.json (a copy of rules/
// in a temporary directory with one rule dropped, one safety condition weakened or one op's
// effect changed), runs `verify` on its contract with the default number of programs and a
// fixed seed, and prints a markdown table: caught?, by which property, the shrunk
// counterexample's statements, and the time to catch. Exit 1 when a mutant is not caught or its
// counterexample has more than 6 statements. Needs `npm run build` (it runs dist/).
//
//   node scripts/mutants.mjs [--seed S] [--runs N] [NAME-SUBSTRING]

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { verify } = await import(join(root, 'dist/verify/verify.js'));
const { statementCount } = await import(join(root, 'dist/verify/shrink.js'));
const { passByName } = await import(join(root, 'dist/passes/registry.js'));
const { RuleSession } = await import(join(root, 'dist/passes/rule-session.js'));

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  args.splice(i, 2);
  return v;
};
const seed = opt('--seed', 1);
const runs = opt('--runs', 100);
const filter = args[0] ?? '';

const mutants = JSON.parse(readFileSync(join(root, 'scripts/mutants.json'), 'utf8')).filter((m) => m.name.includes(filter));
const session = new RuleSession();
const rows = [];
let bad = 0;
for (const m of mutants) {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-mutant-'));
  const rules = join(dir, 'rules');
  cpSync(join(root, 'rules'), rules, { recursive: true });
  const file = join(rules, m.file);
  const text = readFileSync(file, 'utf8');
  if (text.split(m.find).length !== 2) throw new Error(`mutant "${m.name}": its text does not occur exactly once in rules/${m.file}`);
  writeFileSync(
    file,
    text.replace(m.find, () => m.replace),
  );
  const t0 = performance.now();
  const r = verify({ passes: [passByName(m.contract)], run: { session, rulesRoot: rules }, runs, seed, timeoutMs: 60_000 });
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  rmSync(dir, { recursive: true, force: true });
  const stmts = r.ok ? '—' : String(statementCount(r.counterexample));
  if (r.ok || Number(stmts) > 6) bad++;
  rows.push(
    `| ${m.contract} | ${m.name} | ${m.kind} | ${r.ok ? '**no**' : `yes (program ${r.run})`} | ${r.ok ? '—' : r.failure.property} | ${stmts} | ${seconds} s |`,
  );
  process.stderr.write(`${m.name}: ${r.ok ? 'NOT CAUGHT' : `caught (${r.failure.property}, ${stmts} statements)`} in ${seconds} s\n`);
}
console.log(`Mutants of \`rules/\` (\`node scripts/mutants.mjs\`: \`verify --pass CONTRACT --runs ${runs} --seed ${seed}\` on each):\n`);
console.log('| contract | mutant | kind | caught? | property | counterexample statements | time to catch |');
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
process.exitCode = bad > 0 ? 1 : 0;
