import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../src/facts/extract.js';
import { MemorySink } from '../../src/facts/sink.js';
import { parseModule } from '../../src/frontend/index.js';
import { parseManifest } from '../../src/passes/manifest.js';
import { contractsWith, PASSES, rulesDir } from '../../src/passes/registry.js';
import { DiagnosticError } from '../../src/report/diagnostic.js';
import { run } from '../cli/helpers.js';

const FOURTH = 'rules/examples/syncall_handoff';

/** Every .ts file under `dir`. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** A file's code without its comments (what the file does, not what it documents). */
function code(path: string): string {
  return readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/**
 * Files of src/ allowed to name contracts or marker ops, and why: the op catalog the frontend
 * and printer read; the verifier (an independent memory model written from the seed contract,
 * with its program generators), which checks a contract against the spec, not the rules.
 */
const ALLOWED = [/^src\/ir\/ops\.ts$/, /^src\/verify\//, /^src\/gen\//, /^src\/cli\/commands\/verify\.ts$/];

describe('contracts are data', () => {
  it('no TypeScript names the fourth contract', () => {
    const names = ['syncall-handoff', 'syncall_handoff', 'syncall'];
    for (const f of [...tsFiles('src'), ...tsFiles('playground/src')]) {
      for (const n of names) expect(readFileSync(f, 'utf8').includes(n), `${f} names ${n}`).toBe(false);
    }
  });

  it('src/ names no contract and no op a contract inserts, outside the op catalog and the verifier', () => {
    const contracts = PASSES.flatMap((p) => [p.name, `${p.entry.split('/')[0]}/`]);
    const edits = readFileSync(join(rulesDir(), 'edits.dl'), 'utf8');
    const ops = [...edits.matchAll(/^insert_op\("[^"]+", "([^"]+)"\)\./gm)].map((m) => m[1]!);
    expect(ops).toEqual(['system.fence', 'system.cacheinvalid', 'system.task_dummy']);
    const offenders: string[] = [];
    for (const f of tsFiles('src')) {
      if (ALLOWED.some((r) => r.test(f))) continue;
      const text = code(f);
      for (const n of [...contracts, ...ops]) if (text.includes(n)) offenders.push(`${f}: ${n}`);
    }
    expect(offenders).toEqual([]);
  });

  it('a --rules folder with a contract.toml is a contract of its own: --pass, apply, audit, explain know it', async () => {
    expect(contractsWith([FOURTH]).map((p) => p.name)).toEqual([
      'cache-policy',
      'expand-manual-phase-fence',
      'insert-comm-fence',
      'syncall-handoff',
    ]);
    const unknown = await run(['apply', '--pass', 'syncall-handof', 'specs/syncall_handoff/handoff.py']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).not.toContain('syncall-handoff');
    const near = await run(['apply', '--rules', FOURTH, '--pass', 'syncall-handof', 'specs/syncall_handoff/handoff.py']);
    expect(near.err).toContain('did you mean syncall-handoff?');
    const audit = await run(['audit', '--rules', FOURTH, '--format', 'json', 'specs/syncall_handoff/handoff.py']);
    expect(audit.code).toBe(1);
    expect(
      JSON.parse(audit.out)
        .diagnostics.map((d: { code: string }) => d.code)
        .sort(),
    ).toEqual(['syncall-stale-read', 'syncall-unreleased']);
    // apply is idempotent: its output has nothing left to insert.
    const once = await run(['apply', '--rules', FOURTH, '--pass', 'syncall-handoff', 'specs/syncall_handoff/order_not_ids.py']);
    expect(once.code).toBe(0);
    const p = join(mkdtempSync(join(tmpdir(), 'ptolog-4th-')), 'k.py');
    writeFileSync(p, once.out);
    const again = await run(['apply', '--rules', FOURTH, '--pass', 'syncall-handoff', p]);
    expect(again).toEqual({ code: 0, out: once.out, err: '' });
    const ex = await run(['explain', '--rules', FOURTH, '--pass', 'syncall-handoff', `${p}:15`]);
    expect(ex.out).toContain('handoff_marker(');
  });

  it('graph draws the view of the contract whose manifest declares it', async () => {
    const g = await run(['graph', '--after', 'examples/phase_fence.py']);
    expect(g.code).toBe(0);
    expect(g.out).toContain('(after expand-manual-phase-fence)');
    expect(g.out).toContain('pl.system.task_dummy');
    const none = await run(['graph', '--pass', 'insert-comm-fence', 'examples/phase_fence.py']);
    expect(none.code).toBe(2);
    expect(none.err).toContain('declares no graph view');
  });

  it('manifest errors are located: an unknown view, a probe without $s, an unknown [explain] key', () => {
    const bad = (text: string): string => {
      try {
        parseManifest('/x/contract.toml', 'x', `name = "x"\norder = 1\nsummary = "s"\napply = "a.dl"\naudit = "b.dl"\n${text}`);
      } catch (e) {
        if (e instanceof DiagnosticError) return e.diagnostics.map((d) => `${d.location?.start ?? -1}: ${d.message}`).join('\n');
        throw e;
      }
      return 'accepted';
    };
    expect(bad('views = ["tree"]')).toMatch(/^\d+: unknown view 'tree'; the views are graph$/);
    expect(bad('[explain]\nprobes = ["insert_after(1, 0)"]')).toMatch(/probe 'insert_after\(1, 0\)' must be a tuple like rel\(\$s/);
    expect(bad('[explain]\nshwo = ["a"]')).toMatch(/unknown \[explain\] key 'shwo'/);
    expect(bad('[explain]\nshow = ["a b"]')).toMatch(/'a b' is not a relation name/);
    expect(bad('views = ["graph"]\n[explain]\nshow = ["r"]\nprobes = [\'r($s)\']')).toBe('accepted');
  });

  it('[verify] names the program families and the models verify uses; an unknown one is located', () => {
    const bad = (text: string): string => {
      try {
        const m = parseManifest('/x/contract.toml', 'x', `name = "x"\norder = 1\nsummary = "s"\napply = "a.dl"\naudit = "b.dl"\n${text}`);
        return `${m.verifyPrograms.join(',')} / ${m.verifyModels.join(',')}`;
      } catch (e) {
        if (e instanceof DiagnosticError) return e.diagnostics.map((d) => `${d.location?.start ?? -1}: ${d.message}`).join('\n');
        throw e;
      }
    };
    expect(bad('')).toBe('comm / ');
    expect(bad('[verify]\nprograms = ["orchestration"]\nmodels = ["task-order"]')).toBe('orchestration / task-order');
    expect(bad('[verify]\nmodels = ["memroy"]')).toMatch(/^\d+: unknown model 'memroy'; the models are memory, task-order, cache-stamps$/);
    expect(bad('[verify]\nprogram = ["comm"]')).toMatch(/unknown \[verify\] key 'program'/);
    // The shipped contracts declare their models: verify reads them, not contract names.
    expect(PASSES.map((p) => `${p.name}: ${p.verifyModels.join(',')}`)).toEqual([
      'cache-policy: cache-stamps',
      'expand-manual-phase-fence: task-order',
      'insert-comm-fence: memory',
    ]);
  });
});

describe('source order is a fact', () => {
  it('preorder ranks every located node by start offset, an enclosing node first, whatever the ids', () => {
    const m = parseModule(readFileSync('specs/syncall_handoff/order_not_ids.py', 'utf8'), 'k.py');
    const sink = new MemorySink();
    extractFacts(m, sink);
    const spans = new Map((sink.relations.get('span') ?? []).map((t) => [t[0] as number, [t[1] as number, t[2] as number] as const]));
    const pre = (sink.relations.get('preorder') ?? []).map((t) => [t[0] as number, t[1] as number] as const);
    expect(pre.length).toBe(spans.size);
    expect(pre.map(([, k]) => k).sort((a, b) => a - b)).toEqual(pre.map((_, i) => i));
    const byRank = [...pre].sort((a, b) => a[1] - b[1]).map(([n]) => spans.get(n)!);
    for (let i = 1; i < byRank.length; i++) {
      const [s0, e0] = byRank[i - 1]!;
      const [s1, e1] = byRank[i]!;
      expect(s0 < s1 || (s0 === s1 && e0 >= e1)).toBe(true);
    }
    // Ids do not follow source order here (a block's statements get ids before what nests in them).
    const idOrder = [...pre].sort((a, b) => a[0] - b[0]).map(([, k]) => k);
    expect(idOrder).not.toEqual([...idOrder].sort((a, b) => a - b));
  });
});
