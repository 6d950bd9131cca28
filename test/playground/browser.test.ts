// The playground in a real browser: Debian's Chromium driven by playwright-core (no browser
// download). Builds the page once (vite), serves it on 127.0.0.1, pastes a kernel and checks
// each tab. Skipped, with the reason in its name, when no Chromium is found.

import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateToHash } from '../../playground/src/state.js';
import { type Playground, skipReason, startPlayground } from './harness.js';

const OUT = join('test', 'out', 'playground');

describe.skipIf(skipReason !== undefined)(`playground in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let pg: Playground;
  let server: PreviewServer;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    pg = await startPlayground('browser');
    server = pg.server;
    browser = pg.browser;
    page = await pg.open('', errors);
  }, 180_000);

  afterAll(async () => {
    await pg?.close();
  });

  it('pasting ring_allreduce.py shows its findings, underlined in the editor', async () => {
    const text = readFileSync('examples/ring_allreduce.py', 'utf8');
    await page.click('#kernel .cm-content');
    await page.keyboard.press('Control+A');
    // A real paste event, as the user's Ctrl+V sends it (the page code runs in the browser).
    await page.evaluate(`(() => {
      const dt = new DataTransfer();
      dt.setData('text/plain', ${JSON.stringify(text)});
      document.querySelector('#kernel .cm-content').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    })()`);
    await page.waitForSelector('body[data-analysed="2"]', { timeout: 0 });
    expect(await page.locator('#kernel .cm-content').textContent()).toContain('class RingAllReduce');
    const codes = await Promise.all((await page.locator('#findings li').all()).map((li) => li.getAttribute('data-code')));
    // Judged as PyPTO compiles it (the "as written" box unticked): the markers the pass inserts are notes.
    expect(codes).toEqual(['missing-marker', 'missing-marker']);
    const first = await page.textContent('#findings li:nth-child(1)');
    expect(first).toContain('27:13 note[missing-marker]');
    expect(await page.locator('#kernel .cm-lintRange-info').count()).toBeGreaterThan(0);
    expect(await page.locator('#kernel .cm-lintRange-error').count()).toBe(0);
    expect(page.url()).toMatch(/#z=/);
  });

  it('the diff tab shows the inserted markers', async () => {
    await page.click('nav button[data-tab="diff"]');
    const diff = (await page.textContent('#diff'))!;
    const added = diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
    expect(added).toEqual(['+            pl.system.fence()', '+            pl.system.cacheinvalid()']);
    expect(diff.split('\n').some((l) => l.startsWith('-') && !l.startsWith('---'))).toBe(false);
  });

  it('the explain tab follows the cursor line', async () => {
    await page.click('nav button[data-tab="explain"]');
    await page.locator('#kernel .cm-line', { hasText: 'pld.tile.remote_store(' }).click();
    await expect
      .poll(() => page.textContent('#explain'), { timeout: 120_000 })
      .toContain('missing-marker: InsertCommFence inserts pl.system.fence() after this remote publishing write');
    expect(await page.textContent('#explain')).toContain('proof of insert_after(');
  });

  it('the graph tab holds an SVG, and facts are tables', async () => {
    await page.click('nav button[data-tab="facts"]');
    // The facts panel is re-rendered when an analysis arrives (the explain test above moved the
    // cursor): open the stmt table (again, if a re-render closed it) until it shows its rows.
    const rows = page.locator('#facts details[open] table tbody tr');
    await expect
      .poll(
        async () => {
          if ((await page.locator('#facts details[open]').count()) === 0) {
            await page
              .locator('#facts details summary')
              .filter({ hasText: /^stmt\(/ })
              .click();
          }
          return rows.count();
        },
        { timeout: 120_000 },
      )
      .toBeGreaterThan(5);
    const stmtRows = await rows.count();
    expect(await page.textContent('#facts details[open] summary')).toContain(`— ${stmtRows} row(s)`);
    await page.click('nav button[data-tab="graph"]');
    await page.waitForSelector('#graph svg', { timeout: 0 });
    mkdirSync(OUT, { recursive: true });
    await page.click('nav button[data-tab="findings"]');
    await page.screenshot({ path: join(OUT, 'ring_allreduce.png') });
  });

  it('the examples menu loads phase_fence.py, whose fan-out graph has nodes and edges', async () => {
    await page.selectOption('#examples', { label: 'phase_fence.py' });
    await page.waitForSelector('body[data-analysed="3"]', { timeout: 0 });
    await page.click('nav button[data-tab="graph"]');
    await expect.poll(() => page.locator('#graph svg g.edge').count(), { timeout: 120_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: join(OUT, 'phase_fence_graph.png') });
    expect(errors).toEqual([]);
  });

  it('a shared URL restores the kernel and the extra rules, and the rules extend the passes', async () => {
    const kernel = readFileSync('examples/ring_allreduce.py', 'utf8').replace('pld.system.wait(', 'pld.system.ttest(');
    const shared = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const base = server.resolvedUrls!.local[0]!;
    const countMarkers = async (p: Page): Promise<number> => p.locator('#findings li[data-code="missing-marker"]').count();
    await shared.goto(base + (await stateToHash({ kernel, rules: '' })));
    await shared.waitForSelector('body[data-analysed="1"]', { timeout: 0 });
    expect(await countMarkers(shared)).toBe(1);
    await shared.goto(base + (await stateToHash({ kernel, rules: 'wait_op("pld.system.ttest").\n' })));
    await shared.reload();
    await shared.waitForSelector('body[data-analysed="1"]', { timeout: 0 });
    expect(await shared.textContent('#rules .cm-content')).toContain('wait_op("pld.system.ttest").');
    expect(await countMarkers(shared)).toBe(2);
    await shared.close();
  });
});
