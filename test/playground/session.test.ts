// The playground's session in Chromium (issue 33, 11): progress while analysing, a racy default
// example named in the menu, a compressed share link holding the "as written" box, stale
// analyses stopped, and unchanged programs not audited again.

import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateFromHash, stateToHash } from '../../playground/src/state.js';
import { analysed, analysedCount, type Playground, skipReason, startPlayground } from './harness.js';

/** Records every text the status line shows, and whether the progress bar was shown, from page load on. */
const RECORD = `(() => {
  window.__statuses = [];
  window.__progressShown = false;
  new MutationObserver(() => {
    const s = document.getElementById('status');
    const p = document.getElementById('progress');
    if (s && window.__statuses[window.__statuses.length - 1] !== s.textContent) window.__statuses.push(s.textContent);
    if (p && !p.hidden) window.__progressShown = true;
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})()`;

describe.skipIf(skipReason !== undefined)(`playground session in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let pg: Playground;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    pg = await startPlayground('session');
    const ctx = await pg.browser.newContext({ viewport: { width: 1400, height: 900 } });
    await ctx.addInitScript(RECORD);
    page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pg.base);
    await analysed(page, 1);
  }, 180_000);

  afterAll(async () => {
    await pg?.close();
  });

  it('opens on a racy kernel, named in the menu, and shows the steps of its analysis', async () => {
    expect(await page.$eval('#examples', (s) => (s as unknown as { selectedOptions: { label: string }[] }).selectedOptions[0]!.label)).toBe(
      'ring_allreduce.py',
    );
    expect(await page.locator('#findings li').evaluateAll((l) => l.map((x) => x.getAttribute('data-code')))).toEqual([
      'missing-marker',
      'missing-marker',
    ]);
    const statuses = (await page.evaluate('window.__statuses')) as string[];
    expect(statuses.some((s) => /^analysing… \d+\/\d+: insert-comm-fence: audit of RingAllReduce/.test(s))).toBe(true);
    expect(statuses.some((s) => /^analysing… \d+\/\d+: .*: apply/.test(s))).toBe(true);
    expect(await page.evaluate('window.__progressShown')).toBe(true);
    expect(await page.isHidden('#progress')).toBe(true);
  });

  it('the share link is compressed and holds the "as written" box', async () => {
    const n = await analysedCount(page);
    await page.check('#as-written');
    await analysed(page, n + 1);
    await expect.poll(() => page.url()).toMatch(/#z=[\w-]+$/);
    const state = await stateFromHash(new URL(page.url()).hash);
    expect(state).toEqual({ kernel: readFileSync('examples/ring_allreduce.py', 'utf8'), rules: '', asWritten: true });
    const other = await pg.open(new URL(page.url()).hash);
    expect(await other.isChecked('#as-written')).toBe(true);
    // Judged as written, the missing markers are errors.
    expect(await other.locator('#findings .sev-error').count()).toBeGreaterThan(0);
    expect(await other.$eval('#examples', (s) => (s as unknown as { value: string }).value)).toMatch(/ring_allreduce\.py$/);
    await other.close();
    const n2 = await analysedCount(page);
    await page.uncheck('#as-written');
    await analysed(page, n2 + 1);
    // The same text and stage as before: the result is the one computed then.
    expect(await page.textContent('#status')).toContain('(the same text analysed before)');
  });

  it('a newer analysis stops the one running', async () => {
    const rules = page.locator('#rules .cm-content');
    await rules.click();
    const n = await analysedCount(page);
    // Each change of the box starts an analysis at once (no debounce); a new rules text makes each one long.
    await page.keyboard.type('// a');
    await analysed(page, n + 1);
    const m = await analysedCount(page);
    await page.keyboard.type('b');
    await page.waitForTimeout(300);
    await page.click('#as-written');
    await page.click('#as-written');
    await page.click('#as-written');
    await expect.poll(async () => Number(await page.getAttribute('body', 'data-stopped')), { timeout: 120_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.isChecked('#as-written')).toBe(true);
    await page.waitForFunction(`!document.getElementById('status').textContent.startsWith('analysing')`, undefined, { timeout: 0 });
    expect(await analysedCount(page)).toBeGreaterThan(m);
    expect(await page.locator('#findings .sev-error').count()).toBeGreaterThan(0);
  });

  it("a change in one program leaves the other program's audit as it was", async () => {
    const ring = readFileSync('examples/ring_allreduce.py', 'utf8');
    const second = ring.slice(ring.indexOf('@pl.program')).replace('class RingAllReduce', 'class RingAllReduce2');
    const p = await pg.open(await stateToHash({ kernel: `${ring}\n\n${second}`, rules: '' }));
    expect(await p.locator('#findings li').count()).toBe(4);
    const n = await analysedCount(p);
    // An edit of the first program that adds no line: the second one is where it was.
    await p.locator('#kernel .cm-line', { hasText: "# send my chunk into the next rank's window" }).first().click();
    for (let i = 0; i < 3; i++) await p.keyboard.press('End');
    await p.keyboard.type(' (edited)');
    await analysed(p, n + 1);
    await expect.poll(() => p.textContent('#status'), { timeout: 120_000 }).toContain('(1 of 2 program(s) unchanged, not audited again)');
    expect(await p.locator('#findings li').count()).toBe(4);
    await p.close();
    expect(errors).toEqual([]);
  });
});
