// Cost of `ptolog verify` per generated program, by generator family (run after `npm run build`):
//   node bench/verify/prof.mjs
// Each family's 20 sampled modules are checked with all three passes, as `ptolog verify` does.
import fc from 'fast-check';
import { PASSES } from '../../dist/passes/registry.js';
import { RuleSession } from '../../dist/passes/rule-session.js';
import { Runner } from '../../dist/runner/runner.js';
import { checkProgram } from '../../dist/verify/checks.js';
import { arbModule } from '../../dist/verify/programs.js';

for (const name of ['insert-comm-fence', 'expand-manual-phase-fence', 'cache-policy']) {
  const ps = PASSES.filter((p) => p.name === name);
  const mods = fc.sample(arbModule(ps), { numRuns: 20, seed: 4 });
  const t0 = performance.now();
  const session = new RuleSession();
  const runner = new Runner({ passes: PASSES, session, memory: { kind: 'tree' } });
  for (const m of mods) checkProgram(m.text, runner, { sound: m.family === 'comm' });
  const ms = (performance.now() - t0) / mods.length;
  const chars = mods.reduce((a, m) => a + m.text.length, 0) / mods.length;
  console.log(`${mods[0].family.padEnd(13)} ${ms.toFixed(0).padStart(6)} ms/program  (${chars.toFixed(0)} chars on average)`);
}
