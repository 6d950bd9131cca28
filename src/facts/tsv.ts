import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FactValue, MemorySink } from './sink.js';

/** Soufflé's fact-file encoding of one value: tabs, newlines and backslashes escaped. */
export function tsvValue(v: FactValue): string {
  return typeof v === 'number' ? String(v) : v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n');
}

/**
 * Writes one `<relation>.facts` file (tab-separated, Soufflé's format) per relation in
 * `relations` (all of them, empty files included, so Soufflé finds every `.input`).
 */
export function writeFactFiles(dir: string, sink: MemorySink, relations: readonly string[]): number {
  mkdirSync(dir, { recursive: true });
  let total = 0;
  for (const rel of relations) {
    const rows = sink.get(rel);
    total += rows.length;
    writeFileSync(join(dir, `${rel}.facts`), rows.map((r) => `${r.map(tsvValue).join('\t')}\n`).join(''));
  }
  return total;
}
