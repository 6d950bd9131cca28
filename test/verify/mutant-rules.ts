/** Copies of the shipped rules/ with one mutant of scripts/mutants.json applied (for verify's tests). */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Mutant {
  contract: string;
  name: string;
  kind: string;
  file: string;
  find: string;
  replace: string;
}

export const MUTANTS: Mutant[] = JSON.parse(readFileSync('scripts/mutants.json', 'utf8')) as Mutant[];

/** A temporary rules root: the shipped rules with the mutant named `name` applied (its text must occur once). */
export function mutantRoot(name: string): string {
  const m = MUTANTS.find((x) => x.name === name);
  if (!m) throw new Error(`no mutant named ${name}`);
  const root = join(mkdtempSync(join(tmpdir(), 'ptolog-mutant-')), 'rules');
  cpSync('rules', root, { recursive: true });
  const f = join(root, m.file);
  const text = readFileSync(f, 'utf8');
  if (text.split(m.find).length !== 2) throw new Error(`mutant ${name}: its text does not occur exactly once in ${m.file}`);
  writeFileSync(
    f,
    text.replace(m.find, () => m.replace),
  );
  return root;
}
