/**
 * `node:fs` for the browser bundle: a read-only in-memory file system holding the shipped rule
 * files (bundled as text at build time), the rule language's Ohm grammar (read by URL: served by file name),
 * and files the playground writes (the user's extra rules). Writing functions throw: nothing
 * the playground runs writes files.
 */

import datalogOhm from '../../../src/datalog/syntax/datalog.ohm?raw';

const shipped = import.meta.glob(['../../../rules/**/*.dl', '../../../rules/**/*.toml'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const files = new Map<string, string>();
for (const [key, text] of Object.entries(shipped)) files.set(key.replace(/^(\.\.\/)+/, '/'), text);
const grammars = new Map<string, string>([['datalog.ohm', datalogOhm]]);

/** Puts (or, with undefined, removes) a file of the in-memory file system. */
export function setVirtualFile(path: string, text: string | undefined): void {
  if (text === undefined) files.delete(path);
  else files.set(path, text);
}

function enoent(path: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), { code: 'ENOENT' });
}

export function readFileSync(path: string | URL): string {
  if (path instanceof URL) {
    // The bundler rewrites `new URL('./datalog.ohm', import.meta.url)` to a hashed asset name
    // (`datalog-XXXX.ohm`) or a data: URL of the text; the grammar is served from the bundle.
    if (path.protocol === 'data:') return dataUrlText(path.href);
    const name = (path.pathname.split('/').pop() ?? '').replace(/-[\w-]+(?=\.ohm$)/, '');
    const g = grammars.get(name);
    if (g === undefined) throw enoent(String(path));
    return g;
  }
  const text = files.get(path);
  if (text === undefined) throw enoent(path);
  return text;
}

function dataUrlText(href: string): string {
  const comma = href.indexOf(',');
  const body = href.slice(comma + 1);
  if (!href.slice(0, comma).endsWith(';base64')) return decodeURIComponent(body);
  return new TextDecoder().decode(Uint8Array.from(atob(body), (c) => c.charCodeAt(0)));
}

const isDir = (path: string): boolean => {
  const prefix = path.endsWith('/') ? path : `${path}/`;
  return [...files.keys()].some((k) => k.startsWith(prefix));
};

export function statSync(path: string): { isDirectory(): boolean; isFile(): boolean } {
  const dir = isDir(path);
  if (!dir && !files.has(path)) throw enoent(path);
  return { isDirectory: () => dir, isFile: () => !dir };
}

export function readdirSync(path: string): string[] {
  const prefix = path.endsWith('/') ? path : `${path}/`;
  const names = new Set<string>();
  for (const k of files.keys()) if (k.startsWith(prefix)) names.add(k.slice(prefix.length).split('/')[0]!);
  return [...names].sort();
}

export function existsSync(path: string): boolean {
  return files.has(path) || isDir(path);
}

const readOnly = (): never => {
  throw new Error('the playground has no writable file system');
};
export const writeFileSync = readOnly;
export const mkdirSync = readOnly;
export const openSync = readOnly;
export const closeSync = readOnly;
export const readSync = readOnly;
export const writeSync = readOnly;
export const watch = readOnly;
export default {
  readFileSync,
  statSync,
  readdirSync,
  existsSync,
  writeFileSync,
  mkdirSync,
  openSync,
  closeSync,
  readSync,
  writeSync,
  watch,
};
