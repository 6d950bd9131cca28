// The README's playground screenshot: the default (racy) example with one finding fixed (its
// marker inserted by "Fix") and the other one's quick fix in the lint tooltip.
// node bench/playground/screenshot.mjs  (builds playground/dist/ first; writes docs/img/playground-fix.png)
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';

const CONFIG = 'playground/vite.config.ts';
const OUT = 'docs/img/playground-fix.png';
await build({ configFile: CONFIG, logLevel: 'error' });
const server = await preview({ configFile: CONFIG, logLevel: 'error', preview: { host: '127.0.0.1', port: 0 } });
const browser = await chromium.launch({
  executablePath: process.env.PTOLOG_CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(server.resolvedUrls.local[0]);
  await page.waitForSelector('body[data-analysed="1"]', { timeout: 120_000 });
  await page.locator('#findings li').first().locator('button.fix-button').click();
  await page.waitForSelector('body[data-analysed="2"]', { timeout: 120_000 });
  await page.locator('#kernel .cm-lintRange-info').last().hover();
  await page.locator('.cm-tooltip-lint').waitFor();
  mkdirSync('docs/img', { recursive: true });
  await page.screenshot({ path: OUT });
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  await server.close();
}
