// Compiles, when the package is built, the join plans that audits and applies of the shipped
// examples make (dist/compiled-rules/plans.js, read by src/runner/prebuilt-plans.ts): a table of
// functions whose source text is each plan's generated code, which the engine uses instead of
// `new Function` when it generates exactly that code (src/datalog/exec/prebuilt-plans.ts).
// scripts/code-cache.mjs then writes its V8 code cache. Only the examples: a small kernel's audit
// makes mostly the same plans (~95% of those of the small golden inputs), and a bigger table costs
// every run more to read than the few plans it would add save.
// Run by `npm run build` after compile-rules.mjs (the runs read the compiled rules).
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lib = (p) => import(pathToFileURL(join(root, 'dist', p)).href);

const { main } = await lib('cli/main.js');
const { RuleSession } = await lib('passes/rule-session.js');
const { cacheSpecOf, ruleCacheOf } = await lib('runner/rule-cache.js');
const { PLANS_FILE } = await lib('runner/prebuilt-plans.js');
const { compiledPlanCodes, prebuiltPlansScript } = await lib('datalog/index.js');

const spec = cacheSpecOf({}, false);
if (!spec?.prebuilt) throw new Error('dist/compiled-rules is missing: run compile-rules.mjs first (npm run build)');
// The compiled shipped rules only (nothing written to a user's cache), and no prebuilt plans yet.
const session = new RuleSession(root, ruleCacheOf({ version: spec.version, prebuilt: spec.prebuilt }));
const quiet = { stdout: () => {}, stderr: () => {}, env: {}, ruleSession: session };

const examples = readdirSync(join(root, 'examples'))
  .filter((f) => f.endsWith('.py'))
  .sort()
  .map((f) => join(root, 'examples', f));
// (Whatever they find: the exit code says what an example reports, not whether its plans are good.)
for (const file of examples) for (const command of ['audit', 'apply']) await main([command, file], quiet);

const codes = compiledPlanCodes(session.loads.programs).sort();
const text = prebuiltPlansScript(codes);
writeFileSync(join(spec.prebuilt, PLANS_FILE), text);
console.log(`prebuilt-plans: ${codes.length} plan functions, ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB`);
