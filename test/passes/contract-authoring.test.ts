// A rule author's loop (issue 30 items 1-3): a lint-only contract needs no `apply` file, an
// explain probe may use `_`, every manifest error is located in contract.toml, and `ptolog rules
// --rules DIR` lists the folder's contract.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { run, tree } from '../cli/helpers.js';

const LINT = `#include <ptolog/lib.dl>
#include <ptolog/edits.dl>
// A syncall with a GM store right before it.
.decl store_then_sync(s: number, t: number)
store_then_sync(S, T) :- stmt_call(T, _, Op), local_write_op(Op, _), next_stmt(T, S), stmt_call(S, _, "pl.system.syncall").
store_then_sync(S, T) :- stmt_call(T, _, Op), local_write_op(Op, _), next_stmt(T, S), stmt_call(S, _, "system.syncall").
finding("sync-after-store", "warning", S, "a syncall right after a store") :- store_then_sync(S, _).
.output finding
`;

const CATALOG = `[sync-after-store]
severity = "warning"
summary = "a syncall right after a store"
`;

function contract(manifest: string): string {
  return tree({
    'lint/contract.toml': manifest,
    'lint/lint.dl': LINT,
    'lint/diagnostics.toml': CATALOG,
    'k.py': '@specs/syncall_handoff/handoff.py',
  });
}

const LINT_ONLY = `name = "sync-lint"
order = 50
summary = "a lint with no edits"
audit = "lint.dl"

[explain]
show = ["store_then_sync"]
probes = ['store_then_sync($s, _)']
`;

describe('a lint-only contract', () => {
  it('needs no apply file: audit reports it, apply leaves the file as it is', async () => {
    const dir = contract(LINT_ONLY);
    const k = join(dir, 'k.py');
    const audit = await run(['audit', '--rules', join(dir, 'lint'), '--pass', 'sync-lint', '--format', 'json', k]);
    expect(audit.err).toBe('');
    expect(JSON.parse(audit.out).diagnostics.map((d: { code: string }) => d.code)).toEqual(['sync-after-store']);
    const apply = await run(['apply', '--rules', join(dir, 'lint'), '--pass', 'sync-lint', k]);
    expect(apply).toEqual({ code: 0, out: readFileSync(k, 'utf8'), err: '' });
  });

  it('explain probes with _ say why nothing is derived', async () => {
    const dir = contract(LINT_ONLY);
    // Line 15 is `t = pl.load(...)`: no syncall after it.
    const ex = await run(['explain', '--rules', join(dir, 'lint'), '--pass', 'sync-lint', `${join(dir, 'k.py')}:15`]);
    expect(ex.err).toBe('');
    expect(ex.code).toBe(0);
    expect(ex.out).toMatch(/store_then_sync\(\d+, _\) is not derived:/);
  });

  it('a probe the rules cannot read is located at its line in contract.toml', async () => {
    const dir = contract(LINT_ONLY.replace("'store_then_sync($s, _)'", "'store_then_sync($s, _)', 'store_then_sink($s, 0)'"));
    const ex = await run(['explain', '--rules', join(dir, 'lint'), '--pass', 'sync-lint', `${join(dir, 'k.py')}:15`]);
    expect(ex.code).toBe(2);
    expect(ex.err).toMatch(
      /contract\.toml:8:\d+: error\[manifest\]: \[explain\] probe 'store_then_sink\(\$s, 0\)': the relation store_then_sink is not declared/,
    );
    const show = contract(LINT_ONLY.replace('show = ["store_then_sync"]', 'show = ["store_then_sink"]'));
    const ex2 = await run(['explain', '--rules', join(show, 'lint'), '--pass', 'sync-lint', `${join(show, 'k.py')}:15`]);
    expect(ex2.err).toMatch(/contract\.toml:7:\d+: error\[manifest\]: \[explain\] show: the relation store_then_sink is not declared/);
  });

  it('a rule file the manifest names but the folder lacks is located at its key', async () => {
    const dir = contract(LINT_ONLY.replace('audit = "lint.dl"', 'audit = "lint.dl"\napply = "edits.dl"'));
    const r = await run(['audit', '--rules', join(dir, 'lint'), join(dir, 'k.py')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/contract\.toml:5:1: error\[manifest\]: 'apply' names edits\.dl, which is not a file in the contract's folder/);
  });

  it('a contract name taken twice is located at the second name', async () => {
    const dir = contract(LINT_ONLY.replace('name = "sync-lint"', 'name = "insert-comm-fence"'));
    const r = await run(['audit', '--rules', join(dir, 'lint'), join(dir, 'k.py')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/contract\.toml:1:1: error\[manifest\]: two contracts are named 'insert-comm-fence'/);
  });
});

describe('ptolog rules --rules DIR', () => {
  it("lists the folder's contract in the contracts table, and its codes", async () => {
    const dir = contract(LINT_ONLY);
    const r = await run(['rules', '--rules', join(dir, 'lint')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}50 +sync-lint +a lint with no edits$/m);
    expect(r.out).toMatch(/^ {2}sync-after-store +warning +sync-lint /m);
    const ex = await run(['rules', '--rules', 'rules/examples/syncall_handoff']);
    expect(ex.out).toMatch(/^ {2}40 +syncall-handoff +syncall handoff/m);
  });
});

describe('finding_related in JSON and SARIF', () => {
  const KERNEL = `import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Publish:
    @pl.function(type=pl.FunctionType.InCore)
    def send(self, t: pl.Tile[[1, 8], pl.FP32], out: pld.DistributedTensor[[1, 8], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        pl.store(t, [0, 0], out)
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.Set)
`;

  it('the notify an unreleased write reaches is a related location', async () => {
    const k = join(tree({ 'k.py': KERNEL }), 'k.py');
    const json = await run(['audit', '--as-written', '--pass', 'insert-comm-fence', '--format', 'json', k]);
    const cv = JSON.parse(json.out).diagnostics.find((d: { code: string }) => d.code === 'contract-violation');
    expect(cv.related).toEqual([
      { message: 'the notify this write reaches without a release', file: k, line: 10, column: 9, endLine: 10, endColumn: 69 },
    ]);
    const sarif = await run(['audit', '--as-written', '--pass', 'insert-comm-fence', '--format', 'sarif', k]);
    const result = JSON.parse(sarif.out).runs[0].results.find((r: { ruleId: string }) => r.ruleId === 'contract-violation');
    expect(result.relatedLocations).toEqual([
      {
        id: 1,
        physicalLocation: {
          artifactLocation: { uri: pathToFileURL(k).href },
          region: { startLine: 10, startColumn: 9, endLine: 10, endColumn: 69 },
        },
        message: { text: 'the notify this write reaches without a release' },
      },
    ]);
  });
});

describe('proof paths', () => {
  it('name rule files relative to the rule root or the contract folder, from any directory', async () => {
    const ex = await run(['explain', '--pass', 'insert-comm-fence', 'examples/ring_allreduce.py:27']);
    expect(ex.out).toMatch(/\[rule <ptolog\/insert_comm_fence\/insert_comm_fence\.dl>:\d+, height/);
    expect(ex.out).toMatch(/\[fact <ptolog\/op_catalog\.dl>:\d+\]/);
    expect(ex.out).not.toMatch(/\[(rule|fact) (rules\/|\.\.\/|\/)/);
    const dir = contract(LINT_ONLY);
    const user = await run(['explain', '--rules', join(dir, 'lint'), '--pass', 'sync-lint', `${join(dir, 'k.py')}:17`]);
    expect(user.out).toMatch(/\[rule lint\/lint\.dl:\d+, height/);
    const probe = await run(['explain', '--rules', join(dir, 'lint'), '--pass', 'sync-lint', `${join(dir, 'k.py')}:15`]);
    expect(probe.out).toMatch(/rule lint\/lint\.dl:\d+: store_then_sync/);
  });
});

describe('the default stage composes the contracts as apply does', () => {
  const AFTER_FENCE = `#include <ptolog/lib.dl>
#include <ptolog/edits.dl>
.decl gm_store(s: number)
gm_store(S) :- stmt_call(S, _, Op), local_write_op(Op, _).
.decl fenced(s: number)
fenced(S) :- gm_store(S), next_stmt(S, T), stmt_call(T, _, Op), fence_op(Op).
fenced(S) :- gm_store(S), next_stmt(S, T), next_stmt(T, U), stmt_call(U, _, Op), fence_op(Op).
finding("store-unfenced", "warning", S, "no fence right after this store") :- gm_store(S), !fenced(S).
finding("notify-here", "note", S, "a notify") :- stmt_call(S, _, Op), notify_op(Op).
.output finding
`;
  const KERNEL = `import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Publish:
    @pl.function(type=pl.FunctionType.InCore)
    def send(self, t: pl.Tile[[1, 8], pl.FP32], out: pld.DistributedTensor[[1, 8], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        pl.store(t, [0, 0], out)
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.Set)
`;
  const dir = tree({
    'after/contract.toml': 'name = "after-fence"\norder = 40\nsummary = "a fence right after each store"\naudit = "after.dl"\n',
    'after/after.dl': AFTER_FENCE,
    'after/diagnostics.toml': '[store-unfenced]\nseverity = "warning"\nsummary = "s"\n\n[notify-here]\nseverity = "note"\nsummary = "n"\n',
    'k.py': KERNEL,
  });
  const codes = async (...flags: string[]): Promise<string[]> => {
    const r = await run(['audit', '--rules', join(dir, 'after'), '--format', 'json', ...flags, join(dir, 'k.py')]);
    return JSON.parse(r.out).diagnostics.map((d: { code: string; line: number }) => `${d.line}:${d.code}`);
  };

  it("a contract after InsertCommFence judges the text InsertCommFence leaves, its findings on the file's lines", async () => {
    // Default stage: InsertCommFence's fence follows the store, so no store-unfenced; the notify is
    // reported at its own line (10), not at its line in the patched text (12).
    expect(await codes()).toEqual(['9:missing-marker', '10:notify-here']);
    // As written: the store has no fence.
    expect(await codes('--as-written')).toEqual(['9:contract-violation', '9:missing-marker', '9:store-unfenced', '10:notify-here']);
    // Run alone (as `apply --pass after-fence` would), nothing comes before it.
    expect(await codes('--pass', 'after-fence')).toEqual(['9:store-unfenced', '10:notify-here']);
  });
});
