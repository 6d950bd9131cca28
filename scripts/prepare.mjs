// npm's `prepare`: builds dist/ (npm run build). npm runs it after `npm install` in a checkout
// and, for an install from git (`npm install [-g] git+file://...`, what pre-commit-style tools
// do), in a temporary clone after installing the clone's dependencies there. A *global* git
// install runs that nested install in global mode (npm/cli#8440): the clone is left without
// node_modules and the build cannot find its packages. So when the build's packages are not
// installed beside this package, install them here first, locally, from the lock file, without
// running scripts (which would run this one again), then build.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const needed = ['ohm-js', 'typescript', 'rolldown'];

/** Runs npm with `args` in the package root (the npm running this script when known); exits on failure. */
function npm(args, env) {
  const cli = process.env.npm_execpath;
  const [cmd, argv] = cli?.endsWith('.js') ? [process.execPath, [cli, ...args]] : ['npm', args];
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`prepare: npm ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

if (needed.some((p) => !existsSync(join(root, 'node_modules', p, 'package.json')))) {
  // A local install of this package's own dependencies, whatever the outer npm was asked for.
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^npm_config_(global|location|prefix|omit|only|production|dry_run|package_lock_only)$/i.test(k)) delete env[k];
  }
  console.error('prepare: installing the build dependencies in this clone (npm ci --ignore-scripts)');
  const lock = existsSync(join(root, 'package-lock.json'));
  npm([lock ? 'ci' : 'install', '--ignore-scripts', '--include=dev', '--no-audit', '--no-fund', '--global=false', `--prefix=${root}`], env);
}
npm(['run', 'build'], process.env);

// The same npm bug makes the nested install link this clone into the global prefix
// (`<prefix>/lib/node_modules/ptolog` -> the clone, which npm deletes once it has packed it), and
// the real install of the packed clone then writes its dependencies through that link (ENOENT).
// In npm's temporary git clone, replace that link by the empty folder the real install extracts into.
const global = process.env.npm_config_global === 'true' || process.env.npm_config_location === 'global';
if (global && /[\\/]_cacache[\\/]tmp[\\/]git-clone/.test(root) && process.env.npm_config_prefix) {
  const name = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name;
  for (const link of [
    join(process.env.npm_config_prefix, 'lib', 'node_modules', name),
    join(process.env.npm_config_prefix, 'node_modules', name),
  ]) {
    try {
      if (lstatSync(link).isSymbolicLink() && realpathSync(link) === realpathSync(root)) {
        unlinkSync(link);
        mkdirSync(link);
      }
    } catch {
      // (no such link)
    }
  }
}
