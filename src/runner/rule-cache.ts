// The compiled-rules cache of every front end (the CLI, its workers, the language server) (see README, "Cache"): the shipped rules compiled when the
// package is built (dist/compiled-rules/), user rule files in $PTOLOG_CACHE_DIR, else
// $XDG_CACHE_HOME/ptolog, else ~/.cache/ptolog. Entries carry the build they were written by.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuleCache } from '../datalog/index.js';
import { diskStore } from '../datalog/plan/disk-store.js';

/** Where the cache is, as plain data (handed to `--jobs` workers). */
export interface CacheSpec {
  /** ptolog's version and the build's identity. */
  version: string;
  /** The package's compiled shipped rules (read only). */
  prebuilt?: string;
  /** The user's cache directory (read and written). */
  dir?: string;
}

/** A RuleCache built from a spec (the spec kept with it). */
export interface CliRuleCache extends RuleCache {
  spec: CacheSpec;
  memory: Map<string, string>;
}

/** The build's compiled shipped rules (dist/compiled-rules/, beside dist/cli/ and dist/bundle/). */
function prebuiltDir(): string {
  return fileURLToPath(new URL('../compiled-rules', import.meta.url));
}

/**
 * The cache of a run: undefined when ptolog runs from its TypeScript sources (no build to key
 * entries by); with `noCache` (--no-cache) nothing is read from disk or written, but `--jobs`
 * workers still share what the main thread compiled.
 */
export function cacheSpecOf(env: Readonly<Record<string, string | undefined>>, noCache: boolean): CacheSpec | undefined {
  const prebuilt = prebuiltDir();
  let build: string;
  let pkg: string;
  try {
    build = readFileSync(join(prebuilt, 'BUILD'), 'utf8').trim();
    pkg = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return undefined;
  }
  const version = `${pkg}+${build}`;
  if (noCache) return { version };
  const xdg = env['XDG_CACHE_HOME'];
  const dir = env['PTOLOG_CACHE_DIR'] || (xdg ? join(xdg, 'ptolog') : join(homedir(), '.cache', 'ptolog'));
  return { version, prebuilt, dir };
}

/** The RuleCache of a spec, its memory holding `entries` (what another thread compiled). */
export function ruleCacheOf(spec: CacheSpec, entries: Iterable<[string, string]> = []): CliRuleCache {
  const user = spec.dir !== undefined ? diskStore(spec.dir) : undefined;
  return {
    spec,
    version: spec.version,
    stores: [...(spec.prebuilt !== undefined ? [diskStore(spec.prebuilt, false)] : []), ...(user ? [user] : [])],
    ...(user ? { write: user } : {}),
    memory: new Map(entries),
  };
}
