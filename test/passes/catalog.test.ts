// The diagnostic catalog (rules/**/diagnostics.toml): every code declared once, with its help;
// catalog errors located; SARIF rules described from it; `ptolog rules` formatting.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogForRules, loadCatalog, parseCatalog } from '../../src/passes/catalog.js';
import { formatRulesList, lookupCode } from '../../src/passes/catalog-text.js';
import { BUILTIN_CODES, knownCodes } from '../../src/passes/codes.js';
import { PASSES, ruleFilesUnder, rulesDir } from '../../src/passes/registry.js';
import { type Diagnostic, DiagnosticError } from '../../src/report/diagnostic.js';
import { renderSarif } from '../../src/report/sarif.js';
import { SourceText } from '../../src/report/source.js';
import { renderDiagnostics } from '../../src/report/text.js';

function errorText(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof DiagnosticError) return renderDiagnostics(e.diagnostics);
    throw e;
  }
  throw new Error('expected a DiagnosticError');
}

describe('the shipped catalog', () => {
  // The shipped contracts, ptolog's own codes, and the example contracts under rules/examples/.
  const catalog = loadCatalog(rulesDir(), ruleFilesUnder(rulesDir()));

  it('declares every finding code of the shipped rules and every built-in code', () => {
    const missing = [...knownCodes(), ...BUILTIN_CODES].filter((c) => !catalog.has(c));
    expect(missing).toEqual([]);
    expect(catalog.has('undeclared-code')).toBe(true);
  });

  it('gives each shipped code a summary, a help longer than it, and an example', () => {
    for (const e of catalog.values()) {
      expect(e.summary, e.code).not.toContain('\n');
      expect(e.help.length, e.code).toBeGreaterThan(e.summary.length);
      expect(e.example, e.code).not.toBe('');
    }
  });

  it("names each code's contract from its folder's manifest", () => {
    expect(catalog.get('missing-marker')?.contract).toBe('insert-comm-fence');
    expect(catalog.get('cache-policy-arity')?.contract).toBe('cache-policy');
    expect(catalog.get('symbolic-size')?.contract).toBe('expand-manual-phase-fence');
    expect(catalog.get('syntax-error')?.contract).toBe('ptolog');
    expect(catalog.get('syncall-unreleased')?.contract).toBe('syncall-handoff');
    const contracts = new Set([...PASSES.map((p) => p.name), 'syncall-handoff']);
    for (const e of catalog.values()) if (e.contract !== 'ptolog') expect(contracts.has(e.contract), e.code).toBe(true);
  });

  it('gives each code the severity the shipped rules report it with', () => {
    const given = new Map<string, Set<string>>();
    for (const f of ruleFilesUnder(rulesDir())) {
      for (const m of readFileSync(f, 'utf8').matchAll(/\bfinding\(\s*"([^"]+)",\s*"([^"]+)"/g)) {
        given.set(m[1]!, new Set([...(given.get(m[1]!) ?? []), m[2]!]));
      }
    }
    expect(given.size).toBeGreaterThan(10);
    for (const [code, sevs] of given) expect([...sevs], code).toEqual([catalog.get(code)?.severity]);
  });
});

describe('catalog errors', () => {
  it('rejects a bad severity where it is written', () => {
    const text = '[x]\nseverity = "warn"\nsummary = "s"\n';
    expect(errorText(() => parseCatalog('d.toml', text, 'c'))).toContain('d.toml:2:1: error[catalog]: "warn" is not a severity');
  });

  it('rejects an unknown key and a missing summary', () => {
    expect(errorText(() => parseCatalog('d.toml', '[x]\nseverity = "note"\nsumary = "s"\n', 'c'))).toContain(
      "d.toml:3:1: error[catalog]: unknown key 'sumary' in [x]",
    );
    expect(errorText(() => parseCatalog('d.toml', '[x]\nseverity = "note"\n', 'c'))).toContain(
      "'summary' of [x] must be a non-empty string",
    );
  });

  it('rejects invalid TOML and a code declared twice', () => {
    expect(errorText(() => parseCatalog('d.toml', '[x\n', 'c'))).toContain('d.toml:1:');
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-catalog-'));
    writeFileSync(join(dir, 'diagnostics.toml'), '[missing-marker]\nseverity = "note"\nsummary = "again"\n');
    expect(errorText(() => catalogForRules(rulesDir(), [dir]))).toMatch(
      /diagnostics\.toml:1:1: error\[catalog\]: the code 'missing-marker' is declared twice/,
    );
  });

  it("reads a user's catalog beside a --rules directory, with defaults", () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-catalog-'));
    writeFileSync(join(dir, 'diagnostics.toml'), '[my-check]\nseverity = "warning"\nsummary = "a wait"\n');
    const e = catalogForRules(rulesDir(), [dir]).get('my-check');
    expect(e).toMatchObject({ severity: 'warning', contract: 'user', summary: 'a wait', help: 'a wait', example: '' });
  });
});

describe('SARIF rules from the catalog', () => {
  const catalog = loadCatalog(rulesDir());
  const source = new SourceText('k.py', 'x = 1\n');
  const ds: Diagnostic[] = [
    { severity: 'warning', code: 'missing-marker', message: 'm', location: { source, start: 0, end: 1 } },
    { severity: 'error', code: 'not-declared-anywhere', message: 'n', location: { source, start: 0, end: 1 } },
  ];
  const log = JSON.parse(renderSarif(ds, '0.1.0', [], (c) => catalog.get(c))) as {
    runs: { tool: { driver: { rules: Record<string, unknown>[] } } }[];
  };
  const rules = log.runs[0]!.tool.driver.rules;

  it('carries shortDescription, fullDescription, help and defaultConfiguration.level', () => {
    const mm = rules.find((r) => r['id'] === 'missing-marker')!;
    const e = catalog.get('missing-marker')!;
    expect(mm['shortDescription']).toEqual({ text: e.summary });
    expect(mm['fullDescription']).toEqual({ text: e.help });
    expect(mm['defaultConfiguration']).toEqual({ level: 'note' }); // the default stage's severity
    const help = mm['help'] as { text: string; markdown: string };
    expect(help.text).toContain(e.help);
    expect(help.text).toContain(e.example);
    expect(help.markdown).toContain(`\`\`\`\n${e.example}\n\`\`\``);
    expect(mm['properties']).toEqual({ contract: 'insert-comm-fence' });
  });

  it('keeps a code the catalog does not know as id only', () => {
    expect(rules.find((r) => r['id'] === 'not-declared-anywhere')).toEqual({ id: 'not-declared-anywhere', name: 'not-declared-anywhere' });
  });
});

describe('ptolog rules', () => {
  const catalog = loadCatalog(rulesDir());

  it('lists every contract in pipeline order and every code', () => {
    const text = formatRulesList(PASSES, catalog);
    const at = PASSES.map((p) => text.indexOf(`  ${p.name}  `));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    for (const c of catalog.keys())
      expect(text).toMatch(new RegExp(`^  ${c} +(error|warning|note)(; [a-z-]+: (error|warning|note))* `, 'm'));
  });

  it('suggests the closest code for an unknown one', () => {
    expect(errorText(() => lookupCode(catalog, 'contract-violaton'))).toContain(
      "unknown diagnostic code 'contract-violaton' (did you mean 'contract-violation'?)",
    );
  });
});
