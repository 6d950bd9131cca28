// One catalog declares every code ptolog emits (issue 30 item 8), with the severity it is
// reported with, per audit stage where that differs (issue 32 item 7).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog, parseCatalog } from '../../src/passes/catalog.js';
import { formatRulesList } from '../../src/passes/catalog-text.js';
import { BUILTIN_CODES } from '../../src/passes/codes.js';
import { auditText } from '../../src/passes/pipeline.js';
import { PASSES, ruleFilesUnder, rulesDir } from '../../src/passes/registry.js';
import { DiagnosticError } from '../../src/report/diagnostic.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/**
 * Every code a diagnostic of src/ is built with, and the severities it is built with (`?` when
 * the scan cannot tell): `{ severity, code: '...' }` objects, and the code argument of
 * errorAt / failAt (errors) and of the rule checker's `at` / `warnAt` / `located` helpers.
 */
function emittedCodes(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (code: string, severity: string): void => {
    out.set(code, new Set([...(out.get(code) ?? []), severity]));
  };
  for (const f of sources('src')) {
    const t = readFileSync(f, 'utf8');
    for (const m of t.matchAll(/code: '([a-z][a-z0-9-]*)'/g)) {
      const before = /severity: '(\w+)'[^{}]*$/.exec(t.slice(Math.max(0, m.index - 200), m.index));
      const after = /^[^{}]*severity: '(\w+)'/.exec(t.slice(m.index, m.index + 200));
      add(m[1]!, (before ?? after)?.[1] ?? '?');
    }
    for (const m of t.matchAll(/(?<!function )\b(errorAt|failAt)\([^;'"`]*?'([a-z][a-z0-9-]*)'/g)) add(m[2]!, 'error');
    for (const m of t.matchAll(/(?<!function )\b(at|warnAt|located)\(\s*[\w.]+,\s*'([a-z][a-z0-9-]*)'/g))
      add(m[2]!, m[1] === 'warnAt' ? 'warning' : m[1] === 'at' ? 'error' : '?');
  }
  return out;
}

describe('the catalog is complete', () => {
  const catalog = loadCatalog(rulesDir(), ruleFilesUnder(rulesDir()));
  const emitted = emittedCodes();

  it('declares every code emitted anywhere in src/', () => {
    expect(emitted.size).toBeGreaterThan(40);
    for (const c of [
      'manifest',
      'bad-tuple',
      'bad-fact',
      'too-many-tuples',
      'evaluation-timeout',
      'include-not-found',
      'internal-error',
      'usage',
      'unused-relation',
      'bad-argument',
      'unwritable-output',
      'undeclared-relation',
    ]) {
      expect(emitted.has(c), c).toBe(true);
    }
    expect([...emitted.keys()].filter((c) => !catalog.has(c)).sort()).toEqual([]);
  });

  it('gives each emitted code the severity src/ reports it with', () => {
    const wrong: string[] = [];
    for (const [code, sevs] of emitted) {
      const e = catalog.get(code);
      if (!e) continue;
      const declared = new Set([e.severity, ...Object.values(e.stages)]);
      for (const s of sevs)
        if (s !== '?' && !declared.has(s as never)) wrong.push(`${code}: reported as ${s}, declared ${[...declared].join('/')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('BUILTIN_CODES is read from rules/diagnostics.toml, not repeated in TypeScript', () => {
    const own = parseCatalog('d', readFileSync(join(rulesDir(), 'diagnostics.toml'), 'utf8'), 'ptolog').map((e) => e.code);
    expect([...BUILTIN_CODES]).toEqual(own);
    expect(readFileSync('src/passes/codes.ts', 'utf8')).not.toMatch(/'syntax-error'/);
  });
});

describe('severity per audit stage', () => {
  const catalog = loadCatalog(rulesDir());
  const kernel = readFileSync('examples/ring_allreduce.py', 'utf8');

  it('missing-marker is a note at the default stage and a warning as written, as reported', () => {
    const e = catalog.get('missing-marker')!;
    expect(e.severity).toBe('note');
    expect(e.stages).toEqual({ 'as-written': 'warning' });
    const pass = PASSES.filter((p) => p.name === 'insert-comm-fence');
    const byStage = (stage: 'pipeline' | 'as-written'): Set<string> =>
      new Set(
        auditText(kernel, 'k.py', pass, { stage })
          .filter((d) => d.code === 'missing-marker')
          .map((d) => d.severity),
      );
    expect([...byStage('pipeline')]).toEqual([e.severity]);
    expect([...byStage('as-written')]).toEqual([e.stages['as-written']]);
  });

  it('ptolog rules shows the severity per stage where it differs', () => {
    const text = formatRulesList(PASSES, catalog);
    expect(text).toMatch(/^ {2}missing-marker +note; as-written: warning +insert-comm-fence /m);
    expect(text).toMatch(/^ {2}not-python +warning /m);
    expect(text).toMatch(/^ {2}unfollowed-import +warning /m);
  });

  it('a stage the audit does not know is a located catalog error', () => {
    try {
      parseCatalog('d.toml', '[x]\nseverity = "note"\nstages = { as-writen = "warning" }\nsummary = "s"\n', 'c');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DiagnosticError);
      const d = (e as DiagnosticError).diagnostics[0]!;
      expect(d.message).toContain("unknown audit stage 'as-writen'");
      expect(d.location?.source.position(d.location.start).line).toBe(3);
    }
  });
});
