// Shared set-up of the playground browser tests: builds the page once per test file (vite),
// serves it on 127.0.0.1 and drives Debian's Chromium with playwright-core (no browser download).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';

const CANDIDATES = [process.env['PTOLOG_CHROMIUM'], '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const executablePath = CANDIDATES.find((p): p is string => p !== undefined && p !== '' && existsSync(p));
/** Why the browser tests are skipped (no Chromium), or undefined. */
export const skipReason = executablePath ? undefined : 'no Chromium found (apt-get install chromium, or set PTOLOG_CHROMIUM)';
const CONFIG = 'playground/vite.config.ts';
/** Chromium flags: headless, no sandbox (root in CI), and nothing that reaches the network by itself. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A served playground and a browser to open it in. */
export interface Playground {
  server: PreviewServer;
  browser: Browser;
  base: string;
  /** A new 1400×900 page at `hash` (after its first analysis), collecting page errors into `errors`. */
  open(hash?: string, errors?: string[]): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Builds and serves the playground, and launches Chromium. Each test file (`name`) builds into a
 * folder of its own under test/out/ (the files run in parallel).
 */
export async function startPlayground(name: string): Promise<Playground> {
  const outDir = resolve('test', 'out', 'playground-dist', name);
  await build({ configFile: CONFIG, logLevel: 'error', build: { outDir } });
  const server = await preview({
    configFile: CONFIG,
    logLevel: 'error',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  const browser = await chromium.launch({ executablePath: executablePath!, args: ARGS });
  const base = server.resolvedUrls!.local[0]!;
  return {
    server,
    browser,
    base,
    async open(hash = '', errors?: string[]): Promise<Page> {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      if (errors) {
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
      }
      await page.goto(base + hash);
      await page.waitForSelector('body[data-analysed="1"]', { timeout: 0 });
      return page;
    },
    async close(): Promise<void> {
      await browser.close();
      await server.close();
    },
  };
}

/** Waits until the page has shown its `n`th analysis. */
export async function analysed(page: Page, n: number): Promise<void> {
  await page.waitForSelector(`body[data-analysed="${n}"]`, { timeout: 0 });
}

/** How many analyses the page has shown. */
export async function analysedCount(page: Page): Promise<number> {
  return Number(await page.getAttribute('body', 'data-analysed'));
}

/**
 * Whether the first character of the kernel editor's line `line` (1-based) is on screen: inside
 * the editor's scroller, right of the gutter, and what the browser hits there is that line.
 */
export async function firstColumnVisible(page: Page, line: number): Promise<boolean> {
  // (Page code as text: the tests are type-checked without the DOM's types.)
  return page.evaluate(`((n) => {
    const g = [...document.querySelectorAll('#kernel .cm-lineNumbers .cm-gutterElement')].find((e) => e.textContent === String(n));
    if (!g) return false;
    const top = g.getBoundingClientRect().top + 1;
    const el = [...document.querySelectorAll('#kernel .cm-line')].find((l) => {
      const r = l.getBoundingClientRect();
      return r.top <= top && r.bottom >= top;
    });
    if (!el) return false;
    const text = document.createTreeWalker(el, NodeFilter.SHOW_TEXT).nextNode();
    if (!text) return false;
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, 1);
    const r = range.getBoundingClientRect();
    const scroller = document.querySelector('#kernel .cm-scroller').getBoundingClientRect();
    const gutter = document.querySelector('#kernel .cm-gutters').getBoundingClientRect();
    if (r.left < gutter.right - 0.5 || r.right > scroller.right || r.top < scroller.top || r.bottom > scroller.bottom) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && el.contains(hit);
  })(${line})`);
}

/** Replaces the kernel by `text` with a real paste event (as the user's Ctrl+V sends it). */
export async function pasteKernel(page: Page, text: string): Promise<void> {
  await page.click('#kernel .cm-content');
  await page.keyboard.press('Control+A');
  await page.evaluate(`(() => {
    const dt = new DataTransfer();
    dt.setData('text/plain', ${JSON.stringify(text)});
    document.querySelector('#kernel .cm-content').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  })()`);
}

/** Loads a shipped example from the menu (unless it is loaded already) and waits for its analysis. */
export async function loadExample(page: Page, name: string): Promise<void> {
  if ((await page.inputValue('#examples')).endsWith(`/${name}`)) return;
  const n = await analysedCount(page);
  await page.selectOption('#examples', { label: name });
  await analysed(page, n + 1);
}
