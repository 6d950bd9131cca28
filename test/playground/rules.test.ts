// Extra rules in Chromium (issue 33, 10): a rule error is listed at its own file:line:col (one
// spelling of the path), underlined in the rules editor, and a click goes there; the rules
// editor highlights Datalog.

import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateToHash } from '../../playground/src/state.js';
import { type Playground, skipReason, startPlayground } from './harness.js';

const RING = readFileSync('examples/ring_allreduce.py', 'utf8');
const BAD = '// two undeclared relations\n\nbar(X) :- baz(X).\n';

describe.skipIf(skipReason !== undefined)(`rules editor in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let pg: Playground;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    pg = await startPlayground('rules');
    page = await pg.open(await stateToHash({ kernel: RING, rules: BAD }), errors);
  }, 180_000);

  afterAll(async () => {
    await pg?.close();
  });

  it('lists a rule error at its own place, underlines it there and jumps to it', async () => {
    const items = page.locator('#findings li');
    expect(await items.count()).toBe(2);
    expect(await items.nth(0).locator('.loc').textContent()).toBe('rules/playground/extra.dl:3:1');
    expect(await items.nth(1).locator('.loc').textContent()).toBe('rules/playground/extra.dl:3:11');
    expect(await items.nth(0).textContent()).toContain('the relation bar is not declared');
    // One spelling of the path, in the list and in apply's refusal.
    await page.click('nav button[data-tab="diff"]');
    expect(await page.textContent('#diff')).toContain('rules/playground/extra.dl:3:1: error[undeclared-relation]');
    expect(await page.textContent('#results')).not.toContain('/rules/');
    await page.click('nav button[data-tab="findings"]');
    // Underlined in the rules editor, at `bar` and `baz`.
    const underlined = page.locator('#rules .cm-lintRange-error');
    expect(await underlined.allTextContents()).toEqual(['bar', 'baz']);
    expect(await page.locator('#kernel .cm-lintRange-error').count()).toBe(0);
    // A click puts the cursor on `baz` in the rules editor.
    await items.nth(1).click();
    expect(await page.evaluate('document.activeElement.closest("#rules") !== null')).toBe(true);
    expect(
      await page.evaluate(`(() => {
      const s = getSelection();
      const n = s.anchorNode;
      const line = (n instanceof Element ? n : n.parentElement).closest('.cm-line');
      const r = document.createRange();
      r.setStart(line, 0);
      r.setEnd(n, s.anchorOffset);
      return r.toString();
    })()`),
    ).toBe('bar(X) :- ');
    expect(errors).toEqual([]);
  });

  it('highlights Datalog: comments, strings, relation names and variables each in their own colour', async () => {
    const rules = '// ttest is a wait too\nwait_op("pld.system.ttest").\nfoo(X) :- wait_op(X).\n';
    const p = await pg.open(await stateToHash({ kernel: RING, rules }));
    const colour = async (text: string): Promise<string> =>
      p.evaluate(`(() => {
        const walker = document.createTreeWalker(document.querySelector('#rules .cm-content'), NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (n.textContent.includes(${JSON.stringify(text)})) return getComputedStyle(n.parentElement).color;
        }
        return 'not found';
      })()`);
    const comment = await colour('ttest is a wait');
    const string = await colour('"pld.system.ttest"');
    const relation = await colour('wait_op');
    const variable = await colour('X');
    const plain = await colour('(');
    expect(new Set([comment, string, relation, variable, plain]).size).toBe(5);
    expect([comment, string, relation, variable]).not.toContain('not found');
    await p.close();
  });
});
