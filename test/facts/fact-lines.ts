/** Facts of a MemorySink as comparable text, for the extraction tests. */
import type { MemorySink } from '../../src/facts/sink.js';

/** Every fact of `sink` as sorted lines (one relation after another). */
export function factLines(sink: MemorySink): string[] {
  const out: string[] = [];
  for (const [rel, rows] of sink.relations) for (const r of rows) out.push(`${rel}(${r.join(',')})`);
  return out.sort();
}
