// The Ohm grammar of the rule language, built once per process from its precompiled recipe
// (datalog-recipe.ts, generated from datalog.ohm at build time): building it from the grammar
// text would cost about as much as loading and evaluating a small rule program.
import * as ohm from 'ohm-js';
import { DATALOG_RECIPE } from './datalog-recipe.js';

// ohm-js exports makeRecipe (what its own CLI's precompiled grammar bundles call) without a type.
const { makeRecipe } = ohm as unknown as { makeRecipe(recipe: unknown): ohm.Grammar };

// A constant built when this module is first imported (cheap next to importing Ohm itself,
// which importing this module costs anyway): no lazily set module state.
// Commands that read no rules (`--version`, a file with no kernel) never import this module.
const GRAMMAR = makeRecipe(JSON.parse(DATALOG_RECIPE));

/** The compiled Ohm grammar of datalog.ohm. */
export function datalogGrammar(): ohm.Grammar {
  return GRAMMAR;
}
