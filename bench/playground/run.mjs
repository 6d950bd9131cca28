// Playground bundle size and first-analysis time on the shipped examples, in Debian's Chromium.
// node bench/playground/run.mjs  (builds playground/dist/ first)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';

const CONFIG = 'playground/vite.config.ts';
await build({ configFile: CONFIG, logLevel: 'error' });
const assets = join('playground', 'dist', 'assets');
console.log('| file | bytes | gzip |\n|---|---:|---:|');
let total = 0;
let totalGz = 0;
for (const name of readdirSync(assets).sort()) {
  const bytes = statSync(join(assets, name)).size;
  const gz = gzipSync(readFileSync(join(assets, name))).length;
  total += bytes;
  totalGz += gz;
  console.log(`| ${name.replace(/-[\w-]{8}\./, '.')} | ${bytes} | ${gz} |`);
}
console.log(`| total | ${total} | ${totalGz} |\n`);

const server = await preview({ configFile: CONFIG, logLevel: 'error', preview: { host: '127.0.0.1', port: 0 } });
const base = server.resolvedUrls.local[0];
const browser = await chromium.launch({ executablePath: process.env.PTOLOG_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const hash = (kernel) => `#k=${Buffer.from(kernel, 'utf8').toString('base64url')}`;
console.log('| example | first analysis (worker) | load → first result |\n|---|---:|---:|');
for (const name of readdirSync('examples')
  .filter((n) => n.endsWith('.py'))
  .sort()) {
  const page = await browser.newPage();
  await page.goto(base + hash(readFileSync(join('examples', name), 'utf8')));
  await page.waitForSelector('body[data-analysed="1"]', { timeout: 120_000 });
  const status = await page.textContent('#status');
  const m = /analysed in (\d+) ms, first result (\d+) ms after load/.exec(status ?? '');
  console.log(`| ${name} | ${m?.[1] ?? '?'} ms | ${m?.[2] ?? '?'} ms |`);
  await page.close();
}
await browser.close();
await server.close();
