// Loads the Ohm grammar of the rule language once (works from src/ under vitest and from dist/).
import { readFileSync } from 'node:fs';
import * as ohm from 'ohm-js';

let cached: ohm.Grammar | undefined;

/** The compiled Ohm grammar of datalog.ohm. */
export function datalogGrammar(): ohm.Grammar {
  cached ??= ohm.grammar(readFileSync(new URL('./datalog.ohm', import.meta.url), 'utf8'));
  return cached;
}
