// Parses the shipped diagnostic catalogs (rules/diagnostics.toml and each contract folder's) once,
// when the package is built, into dist/catalog.json: a run that loads rules then reads their
// entries instead of parsing the TOML again (src/passes/catalog.ts, prebuiltCatalogs). Each file
// is stored with its text and default contract, and is used only where the file read has that
// very text, so an edited catalog is parsed (and its errors reported) as before.
// Run by `npm run build` after tsc.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const lib = (p) => import(pathToFileURL(join(dist, p)).href);
const { catalogFiles, parseCatalog } = await lib('passes/catalog.js');
const { rulesDir } = await lib('passes/registry.js');

const files = [];
for (const [path, contract] of catalogFiles(rulesDir())) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    continue; // (a folder without a catalog)
  }
  const entries = parseCatalog(path, text, contract).map(({ path: _path, ...e }) => e);
  files.push({ text, contract, entries });
}
writeFileSync(join(dist, 'catalog.json'), `${JSON.stringify({ format: 1, files })}\n`);
