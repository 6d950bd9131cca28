// The Ohm grammar of the rule language, built once per process from its precompiled recipe
// (datalog-recipe.ts, generated from datalog.ohm at build time): building it from the grammar
// text would cost about as much as loading and evaluating a small rule program.
import * as ohm from 'ohm-js';
import { DATALOG_RECIPE } from './datalog-recipe.js';

// ohm-js exports makeRecipe (what its own CLI's precompiled grammar bundles call) without a type.
const { makeRecipe } = ohm as unknown as { makeRecipe(recipe: unknown): ohm.Grammar };

let cached: ohm.Grammar | undefined;

/** The compiled Ohm grammar of datalog.ohm. */
export function datalogGrammar(): ohm.Grammar {
  cached ??= makeRecipe(JSON.parse(DATALOG_RECIPE));
  return cached;
}
