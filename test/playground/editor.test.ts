// The kernel editor in Chromium: no line's start is hidden (issue 33, 8a) and it indents as
// Python does, in the file's unit (issue 33, 9).

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysed, analysedCount, firstColumnVisible, loadExample, type Playground, skipReason, startPlayground } from './harness.js';

/** Moves the cursor to the end of its line (End goes to a wrap point first). */
async function lineEnd(page: Page): Promise<void> {
  for (let i = 0; i < 3; i++) await page.keyboard.press('End');
}

describe.skipIf(skipReason !== undefined)(`kernel editor in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let pg: Playground;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    pg = await startPlayground('editor');
    page = await pg.open('', errors);
  }, 180_000);

  afterAll(async () => {
    await pg?.close();
  });

  it('shows the first column of line 1 after load, after a click in a long line, an example and a finding', async () => {
    await expect.poll(() => firstColumnVisible(page, 1), { timeout: 120_000 }).toBe(true);
    // A click in the middle of the longest line (the browser scrolls it into view, as a user's
    // selection does), then another example: every line still starts at the gutter.
    await loadExample(page, 'mesh_gather.py');
    const longest = page.locator('#kernel .cm-line', { hasText: 'pld.system.notify(' }).first();
    await longest.click();
    await page.keyboard.press('End');
    await expect.poll(() => firstColumnVisible(page, 1), { timeout: 120_000 }).toBe(true);
    await loadExample(page, 'ring_allreduce.py');
    await expect.poll(() => firstColumnVisible(page, 1), { timeout: 120_000 }).toBe(true);
    const n = await page.locator('#findings li').count();
    expect(n).toBeGreaterThan(0);
    for (let i = 1; i <= n; i++) {
      const li = page.locator(`#findings li:nth-child(${i})`);
      const line = Number(/^(\d+):/.exec((await li.locator('.loc').textContent()) ?? '')?.[1]);
      await li.locator('.loc').click();
      await expect.poll(() => firstColumnVisible(page, line), { timeout: 120_000 }).toBe(true);
      // (The first finding, line 27, is in view with line 1; the later ones may scroll it up.)
      if (i === 1) await expect.poll(() => firstColumnVisible(page, 1), { timeout: 120_000 }).toBe(true);
    }
    expect(await page.evaluate('document.querySelector("#kernel .cm-scroller").scrollLeft')).toBe(0);
    expect(errors).toEqual([]);
  });

  it("Enter keeps the indentation of a 12-space line (one unit more after a colon), in the file's 4-space unit", async () => {
    await loadExample(page, 'ring_allreduce.py');
    const line = page.locator('#kernel .cm-line', { hasText: 'pld.tile.remote_store(' });
    await line.click();
    await lineEnd(page);
    await page.keyboard.press('Enter');
    // The text of the line holding the cursor.
    const indentOf = async (): Promise<string> =>
      page.evaluate(`(() => {
        const n = getSelection().anchorNode;
        return (n instanceof Element ? n : n.parentElement).closest('.cm-line').textContent;
      })()`);
    expect(await indentOf()).toBe(' '.repeat(12));
    const before = await analysedCount(page);
    // Typing the missing fence: the finding goes, and no inconsistent-dedent error comes.
    await page.keyboard.type('pl.system.fence(');
    await analysed(page, before + 1).catch(() => undefined);
    await expect
      .poll(async () => page.locator('#findings li').evaluateAll((lis) => lis.map((l) => l.getAttribute('data-code'))), {
        timeout: 120_000,
      })
      .toEqual(['missing-marker']);
    expect(await page.textContent('#findings')).toContain('cacheinvalid');
    expect(await page.locator('#kernel .cm-lintRange-error').count()).toBe(0);
    // After a colon: one unit deeper.
    await page.locator('#kernel .cm-line', { hasText: 'for step in pl.range(' }).click();
    await lineEnd(page);
    await page.keyboard.press('Enter');
    expect(await indentOf()).toBe(' '.repeat(12));
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Home');
    await page.keyboard.press('Home');
    // Tab indents the line by one unit; Shift+Tab takes it back.
    const text = async (): Promise<string> =>
      page
        .locator('#kernel .cm-line', { hasText: 'for step in pl.range(' })
        .textContent()
        .then((t) => t ?? '');
    expect(await text()).toMatch(/^ {8}for/);
    await page.keyboard.press('Tab');
    expect(await text()).toMatch(/^ {12}for/);
    await page.keyboard.press('Shift+Tab');
    expect(await text()).toMatch(/^ {8}for/);
  });

  it('a 2-space file is indented in 2s', async () => {
    const kernel =
      'import pypto.language as pl\n\n\n@pl.program\nclass P:\n  @pl.function\n  def f(self, x: pl.Tensor[[4], pl.FP32]):\n    if True:\n      y = x\n';
    const p2 = await pg.open(`#k=${Buffer.from(kernel).toString('base64url')}`);
    await p2.locator('#kernel .cm-line', { hasText: 'y = x' }).click();
    await lineEnd(p2);
    await p2.keyboard.press('Enter');
    await p2.keyboard.type('z = x');
    expect(await p2.locator('#kernel .cm-line', { hasText: 'z = x' }).textContent()).toBe('      z = x');
    await p2.close();
  });
});
