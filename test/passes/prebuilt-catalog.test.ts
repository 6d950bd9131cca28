// The shipped catalogs parsed at build time (dist/catalog.json, scripts/prebuilt-catalog.mjs):
// loadCatalog reads a prebuilt file's entries only where the file on disk has that very text and
// contract; an edited, missing or foreign catalog is parsed as before, its errors reported.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOG_FILE, catalogFiles, loadCatalog, type PrebuiltCatalog, parseCatalog, prebuiltCatalogs } from '../../src/passes/catalog.js';
import { rulesDir } from '../../src/passes/registry.js';
import { DiagnosticError } from '../../src/report/diagnostic.js';
import { renderDiagnostics } from '../../src/report/text.js';
import { runBin } from '../cli/helpers.js';

/** What scripts/prebuilt-catalog.mjs stores for the catalogs of `root`. */
function prebuiltOf(root: string): PrebuiltCatalog[] {
  return catalogFiles(root).flatMap(([path, contract]) => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return [];
    }
    return [{ text, contract, entries: parseCatalog(path, text, contract).map(({ path: _p, ...e }) => e) }];
  });
}

/** A copy of the shipped rules directory. */
function rulesCopy(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'ptolog-prebuilt-')), 'rules');
  cpSync(rulesDir(), dir, { recursive: true });
  return dir;
}

describe('the prebuilt catalog', () => {
  const prebuilt = prebuiltOf(rulesDir());

  it('gives the catalog that parsing gives, entry for entry, with the paths read', () => {
    const root = rulesCopy();
    const parsed = loadCatalog(root, [], []);
    const fromPrebuilt = loadCatalog(root, [], prebuilt);
    expect([...fromPrebuilt.entries()]).toEqual([...parsed.entries()]);
    expect(JSON.stringify([...fromPrebuilt.values()])).toBe(JSON.stringify([...parsed.values()]));
    expect(fromPrebuilt.get('missing-marker')?.path).toBe(join(root, 'insert_comm_fence', CATALOG_FILE));
  });

  it('is what loadCatalog reads where the text matches (no parse)', () => {
    const marked = prebuilt.map((p) => ({ ...p, entries: p.entries.map((e) => ({ ...e, summary: `prebuilt: ${e.summary}` })) }));
    expect(loadCatalog(rulesCopy(), [], marked).get('missing-marker')?.summary).toMatch(/^prebuilt: /);
  });

  it('is not used for a catalog whose text differs: it is parsed, its errors located', () => {
    const root = rulesCopy();
    const path = join(root, 'insert_comm_fence', CATALOG_FILE);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace('severity = "note"', 'severity = "warning"'));
    expect(loadCatalog(root, [], prebuilt)).toEqual(loadCatalog(root, [], []));
    writeFileSync(path, `${text}\n[missing-marker]\nseverity = "note"\nsummary = "again"\n`);
    let shown = '';
    try {
      loadCatalog(root, [], prebuilt);
    } catch (e) {
      if (!(e instanceof DiagnosticError)) throw e;
      shown = renderDiagnostics(e.diagnostics);
    }
    expect(shown).toContain(`${path}:`);
    expect(shown).toContain('error[catalog]');
  });

  it('is not used for a catalog read with another default contract', () => {
    const root = rulesCopy();
    const manifest = join(root, 'cache_policy', 'contract.toml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^name = "cache-policy"/m, 'name = "renamed-policy"'));
    const catalog = loadCatalog(root, [], prebuilt);
    expect(catalog).toEqual(loadCatalog(root, [], []));
    expect([...catalog.values()].some((e) => e.contract === 'renamed-policy')).toBe(true);
  });

  it('reads nothing from a missing, corrupt or foreign file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-prebuilt-'));
    expect(prebuiltCatalogs(join(dir, 'absent.json'))).toEqual([]);
    writeFileSync(join(dir, 'torn.json'), JSON.stringify({ format: 1, files: prebuilt }).slice(0, 500));
    expect(prebuiltCatalogs(join(dir, 'torn.json'))).toEqual([]);
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ format: 2, files: prebuilt }));
    expect(prebuiltCatalogs(join(dir, 'other.json'))).toEqual([]);
    writeFileSync(join(dir, 'ok.json'), JSON.stringify({ format: 1, files: [...prebuilt, { text: 1 }] }));
    expect(prebuiltCatalogs(join(dir, 'ok.json'))).toEqual(prebuilt);
  });
});

describe('the built CLI (dist/catalog.json)', () => {
  it('ships the parsed catalogs, and reports an edited catalog of a --rules-root as it reads it', () => {
    const files = prebuiltCatalogs(join('dist', 'catalog.json'));
    expect(files.map((f) => f.contract).sort()).toEqual(['cache-policy', 'expand-manual-phase-fence', 'insert-comm-fence', 'ptolog']);
    const root = rulesCopy();
    const path = join(root, 'insert_comm_fence', CATALOG_FILE);
    writeFileSync(path, readFileSync(path, 'utf8').replace('severity = "note"', 'severity = "nope"'));
    const r = runBin(['audit', '--rules-root', root, 'examples/ring_allreduce.py']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('error[catalog]: "nope" is not a severity');
  });
});
