// Compiles the rule language's Ohm grammar (src/datalog/syntax/datalog.ohm) into a recipe module
// (src/datalog/syntax/datalog-recipe.ts) that ohm-js's `makeRecipe` turns into the grammar in a few
// milliseconds, where building it from the grammar text costs a quarter of a second per process.
// Run by `npm run build`; `--check` exits 1 when the recipe module does not match the grammar.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ohm from 'ohm-js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const grammarPath = join(root, 'src', 'datalog', 'syntax', 'datalog.ohm');
const recipePath = join(root, 'src', 'datalog', 'syntax', 'datalog-recipe.ts');

/** The recipe module's text for the grammar text `source`. */
export function recipeModule(source) {
  const recipe = ohm.grammar(source).toRecipe();
  JSON.parse(recipe); // a recipe is JSON; fail here rather than in the module
  return [
    '// Generated from datalog.ohm by scripts/ohm-recipe.mjs (run by `npm run build`): do not edit.',
    '// The compiled grammar as an ohm-js recipe (grammar.ts builds it with makeRecipe).',
    `export const DATALOG_RECIPE: string = ${JSON.stringify(recipe)};`,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const want = recipeModule(readFileSync(grammarPath, 'utf8'));
  let have = '';
  try {
    have = readFileSync(recipePath, 'utf8');
  } catch {}
  if (have !== want) {
    if (process.argv.includes('--check')) {
      console.error(`${recipePath} is out of date with datalog.ohm: run \`node scripts/ohm-recipe.mjs\` (or \`npm run build\`).`);
      process.exit(1);
    }
    writeFileSync(recipePath, want);
  }
}
