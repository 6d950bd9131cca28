import fc from 'fast-check';
import { arbModule } from '../../dist/verify/programs.js';
import { checkProgram } from '../../dist/verify/checks.js';
import { PASSES } from '../../dist/passes/registry.js';
for (const names of [['insert-comm-fence'], ['expand-manual-phase-fence'], ['cache-policy']]) {
  const ps = PASSES.filter((p) => names.includes(p.name));
  const texts = fc.sample(arbModule(ps).map((m) => m.text), { numRuns: 20, seed: 4 });
  const t0 = performance.now();
  for (const t of texts) checkProgram(t, PASSES);
  console.log(names[0], ((performance.now() - t0) / 20).toFixed(0), 'ms/program', 'avg len', texts.reduce((a, t) => a + t.length, 0) / 20);
}
