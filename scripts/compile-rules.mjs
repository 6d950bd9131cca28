// Compiles the shipped rules once, when the package is built: each contract's programs (its
// rule files, their includes) parsed, checked and stored in dist/compiled-rules/ as the CLI's
// compiled-rules cache reads them (src/datalog/plan/rule-cache.ts), with BUILD, the identity of this
// build (a hash of the bundles): entries of another build are never used. The CLI still checks
// every input file of an entry against the rules on disk, so an edited rules/ is recompiled.
// Run by `npm run build` after bundle.mjs.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const out = join(dist, 'compiled-rules');
const lib = (p) => import(pathToFileURL(join(dist, p)).href);

const hash = createHash('sha256');
const bundle = join(dist, 'bundle');
for (const f of readdirSync(bundle).sort()) if (f.endsWith('.js')) hash.update(f).update(readFileSync(join(bundle, f)));
const build = hash.digest('hex').slice(0, 24);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const { PASSES, rulesDir } = await lib('passes/registry.js');
const { loadRules } = await lib('passes/analyze.js');
const { RuleSession } = await lib('passes/rule-session.js');
const { diskStore } = await lib('datalog/plan/disk-store.js');
const session = new RuleSession(undefined, { version: `${pkg.version}+${build}`, stores: [], write: diskStore(out), memory: new Map() });
for (const pass of PASSES) for (const entry of new Set([pass.entry, pass.audit])) loadRules(entry, [], rulesDir(), [], session);
writeFileSync(join(out, 'BUILD'), `${build}\n`);
