// Fixes at a click in Chromium (issue 33, 8): "Fix" on a finding (in the list and in the lint
// tooltip), "Apply all" and "Copy diff" on the diff tab; each an undoable editor step.

import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysed, analysedCount, loadExample, type Playground, skipReason, startPlayground } from './harness.js';

const RING = readFileSync('examples/ring_allreduce.py', 'utf8');
const FENCE = '            pld.tile.remote_store(chunk, target=win, peer=next_rank, offsets=[step, 0])\n            pl.system.fence()\n';
const INVALID =
  '            pld.system.wait(signal=signal, offsets=[0, step], expected=1, cmp=pld.WaitCmp.Ge)\n            pl.system.cacheinvalid()\n';

describe.skipIf(skipReason !== undefined)(`fixes in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let pg: Playground;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    pg = await startPlayground('fixes');
    page = await pg.open('', errors);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await loadExample(page, 'ring_allreduce.py');
  }, 180_000);

  afterAll(async () => {
    await pg?.close();
  });

  // (The kernel is short: the editor has every line in the page.)
  const kernel = async (): Promise<string> => page.locator('#kernel .cm-line').evaluateAll((ls) => ls.map((l) => l.textContent).join('\n'));
  const codes = async (): Promise<(string | null)[]> =>
    page.locator('#findings li').evaluateAll((lis) => lis.map((l) => l.getAttribute('data-code')));
  /** Runs `act` and waits for the analysis that follows it. */
  const after = async (act: () => Promise<unknown>): Promise<void> => {
    const n = await analysedCount(page);
    await act();
    await analysed(page, n + 1);
  };

  it('"Fix" on a finding inserts its marker, and Ctrl+Z takes it back', async () => {
    expect(await kernel()).toBe(RING);
    expect(await codes()).toEqual(['missing-marker', 'missing-marker']);
    await after(() => page.locator('#findings li').first().locator('button.fix-button').click());
    expect(await kernel()).toContain(FENCE);
    expect(await kernel()).not.toContain('cacheinvalid');
    expect(await codes()).toEqual(['missing-marker']);
    expect(await page.textContent('#status')).toContain('fix applied (Ctrl+Z undoes it)');
    await page.click('#kernel .cm-content');
    await after(() => page.keyboard.press('Control+z'));
    expect(await kernel()).toBe(RING);
    expect(await codes()).toEqual(['missing-marker', 'missing-marker']);
  });

  it('the lint tooltip offers the same fix', async () => {
    await page.locator('#kernel .cm-lintRange-info').last().hover();
    const fix = page.locator('.cm-tooltip-lint .cm-diagnosticAction', { hasText: 'Fix' });
    await fix.waitFor({ timeout: 0 }).catch(async (e: unknown) => {
      await page.screenshot({ path: 'test/out/pg/tooltip.png' });
      throw e;
    });
    await after(() => fix.click());
    expect(await kernel()).toContain(INVALID);
    expect(await kernel()).not.toContain('fence()');
    await page.click('#kernel .cm-content');
    await after(() => page.keyboard.press('Control+z'));
    expect(await kernel()).toBe(RING);
  });

  it('"Apply all" on the diff tab applies the whole diff (one undo step); "Copy diff" copies it', async () => {
    await page.click('nav button[data-tab="diff"]');
    const diff = (await page.textContent('#diff'))!;
    expect(diff).toContain('+            pl.system.fence()');
    await page.click('#copy-diff');
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()').then((t) => String(t).trimEnd())).toBe(diff.trimEnd());
    await after(() => page.click('#apply-all'));
    expect(await kernel()).toContain(FENCE);
    expect(await kernel()).toContain(INVALID);
    expect(await page.textContent('#diff')).toBe('apply changes nothing.');
    expect(await page.isDisabled('#apply-all')).toBe(true);
    await page.click('nav button[data-tab="findings"]');
    expect(await codes()).toEqual([null]);
    await page.click('#kernel .cm-content');
    await after(() => page.keyboard.press('Control+z'));
    expect(await kernel()).toBe(RING);
    expect(errors).toEqual([]);
  });
});
