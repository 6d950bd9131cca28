import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ContractManifest, manifestError, parseManifest } from './manifest.js';

/** A pass: a contract as its manifest (`rules/<contract>/contract.toml`) declares it. */
export type PassSpec = ContractManifest;

/** The directory holding the shipped rule files (`rules/` at the package root). */
export function rulesDir(): string {
  // This file is src/passes/registry.ts (tests) or dist/passes/registry.js (CLI): two levels up.
  return join(fileURLToPath(new URL('../..', import.meta.url)), 'rules');
}

/** The contracts of `dir`: one per sub-folder holding a `contract.toml`, in pipeline order. */
export function loadContracts(dir: string): PassSpec[] {
  const specs: PassSpec[] = [];
  for (const folder of readdirSync(dir)) {
    const path = join(dir, folder, 'contract.toml');
    if (!existsSync(path)) continue;
    specs.push(withFiles(parseManifest(path, folder, readFileSync(path, 'utf8')), dir));
  }
  return checkedOrder(specs);
}

/** True when `dir` is a contract folder of its own (it holds a `contract.toml`). */
export function isContractFolder(dir: string): boolean {
  return existsSync(join(dir, 'contract.toml'));
}

/**
 * The shipped contracts (or `base`) plus those of `ruleDirs` (each `--rules DIR` holding a
 * `contract.toml`; its rule paths absolute), in pipeline order.
 */
export function contractsWith(ruleDirs: readonly string[] = [], base: readonly PassSpec[] = PASSES): PassSpec[] {
  const own = ruleDirs.filter(isContractFolder).map((d) => {
    const path = join(d, 'contract.toml');
    return withFiles(parseManifest(path, resolve(d), readFileSync(path, 'utf8')), d);
  });
  return own.length === 0 ? [...base] : checkedOrder([...base, ...own]);
}

/** `spec` when its rule files exist under `dir` (or absolute); else a `manifest` error at the key naming the missing one. */
function withFiles(spec: PassSpec, dir: string): PassSpec {
  for (const key of spec.edits ? ['apply', 'audit'] : ['audit']) {
    const f = key === 'apply' ? spec.entry : spec.audit;
    if (!existsSync(isAbsolute(f) ? f : join(dir, f))) {
      throw manifestError(
        spec.site,
        spec.site.keyAt(key),
        `'${key}' names ${basename(f)}, which is not a file in the contract's folder`,
        `create ${basename(f)} beside contract.toml or correct the name.`,
      );
    }
  }
  return spec;
}

function checkedOrder(specs: PassSpec[]): PassSpec[] {
  const seen = new Map<string, PassSpec>();
  for (const s of specs) {
    const before = seen.get(s.name);
    if (before) {
      throw manifestError(
        s.site,
        s.site.keyAt('name'),
        `two contracts are named '${s.name}' (this one and the one of ${before.site.source.path})`,
        'give each contract its own name.',
      );
    }
    seen.set(s.name, s);
  }
  return specs.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
}

/** The shipped passes, in PyPTO's pipeline order (the order `apply` runs them when none is named). */
export const PASSES: readonly PassSpec[] = Object.freeze(loadContracts(rulesDir()));

/** The pass named `name` (shipped, or a contract folder among `ruleDirs`), or undefined. */
export function passByName(name: string, ruleDirs: readonly string[] = []): PassSpec | undefined {
  return (ruleDirs.length === 0 ? PASSES : contractsWith(ruleDirs)).find((p) => p.name === name);
}

/** Every `.dl` file under `dir` (the shipped rules: the shared files and each contract's folder), sorted. */
export function ruleFilesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      if (n.endsWith('.dl')) out.push(p);
      else if (!n.includes('.')) walk(p);
    }
  };
  walk(dir);
  return out;
}
