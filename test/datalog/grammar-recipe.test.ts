import { readFileSync } from 'node:fs';
import * as ohm from 'ohm-js';
import { describe, expect, it } from 'vitest';
import { DATALOG_RECIPE } from '../../src/datalog/syntax/datalog-recipe.js';
import { datalogGrammar } from '../../src/datalog/syntax/grammar.js';

// ohm-js has Grammar#toRecipe (its CLI's bundles use it) without a type.
const recipeOf = (g: ohm.Grammar): string => (g as unknown as { toRecipe(): string }).toRecipe();
const grammarText = readFileSync(new URL('../../src/datalog/syntax/datalog.ohm', import.meta.url), 'utf8');

describe('the precompiled rule-language grammar', () => {
  it('is the recipe of datalog.ohm as it stands (run `node scripts/ohm-recipe.mjs` after editing the grammar)', () => {
    expect(JSON.parse(DATALOG_RECIPE)).toEqual(JSON.parse(recipeOf(ohm.grammar(grammarText))));
  });

  it('matches and fails where the grammar built from its text does, with the same expected items', () => {
    const fromText = ohm.grammar(grammarText);
    const texts = [
      '.decl r(x: number)\nr(1).\n',
      'r(X) :- s(X), X != 3.',
      'r(X) :- s(X),.',
      '.decl (x: number)',
      'r("abc',
      'r(X) :- N = count : { s(_) }, M = min Y : s(Y).',
    ];
    for (const t of texts) {
      const a = datalogGrammar().match(t);
      const b = fromText.match(t);
      expect(a.succeeded()).toBe(b.succeeded());
      if (a.failed() && b.failed()) {
        expect(a.getRightmostFailurePosition()).toBe(b.getRightmostFailurePosition());
        expect(a.message).toBe(b.message);
      }
    }
  });
});
