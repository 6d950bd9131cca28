import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../cli/helpers.js';

/** A --rules directory with one file extending InsertCommFence by `body`. */
function ext(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-edits-'));
  writeFileSync(join(dir, 'x.dl'), `#include "insert_comm_fence/insert_comm_fence.dl"\n${body}\n`);
  return dir;
}

/** A scratch copy of a shipped example. */
function scratch(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-edits-'));
  const p = join(dir, name);
  copyFileSync(join('examples', name), p);
  return p;
}

describe('generic edits', () => {
  it('a rule inserts a call of an op no shipped contract inserts, with arguments of every kind', async () => {
    const dir = ext(
      [
        'insert_call(S, "before", 0, "system.task_invalid", "") :- stmt_call(S, _, "pld.system.wait").',
        'insert_call(S, "after", 7, "pld.system.notify", "") :- stmt_call(S, C, "pld.system.wait"), arg(C, 0, _).',
        'call_arg(S, "after", 7, 0, "expr", E, "") :- stmt_call(S, C, "pld.system.wait"), arg(C, 0, E).',
        'call_arg(S, "after", 7, 1, "text", 0, "1") :- stmt_call(S, _, "pld.system.wait").',
        'call_arg(S, "after", 7, 2, "text", 0, "[0, 0]") :- stmt_call(S, _, "pld.system.wait").',
        'call_arg(S, "after", 7, 3, "name", 0, "step") :- stmt_call(S, _, "pld.system.wait").',
        'call_kwarg(S, "after", 7, "op", "text", 0, "pld.NotifyOp.Set") :- stmt_call(S, _, "pld.system.wait").',
      ].join('\n'),
    );
    const r = await run(['apply', '--pass', 'insert-comm-fence', '--rules', dir, 'examples/ring_allreduce.py']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\n( +)pl\.system\.task_invalid\(\)\n\1pld\.system\.wait\(/);
    expect(r.out).toMatch(
      /pld\.system\.wait\([^\n]*\n( +)pl\.system\.cacheinvalid\(\)\n\1pld\.system\.notify\(signal, 1, \[0, 0\], step, op=pld\.NotifyOp\.Set\)\n/,
    );
  });

  it('a binding before a statement, and replace_kwarg replaces a keyword value', async () => {
    const dir = ext(
      [
        'insert_call(S, "before", 0, "system.task_dummy", "t0") :- stmt_call(S, _, "pld.system.wait").',
        'replace_kwarg(C, "cache", "pl.CachePolicy.DEFAULT") :- stmt_call(_, C, "tile.load"), kwarg(C, "cache", _).',
      ].join('\n'),
    );
    const r = await run(['apply', '--pass', 'insert-comm-fence', '--rules', dir, 'examples/ring_allreduce.py']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\n( +)t0 = pl\.system\.task_dummy\(\)\n\1pld\.system\.wait\(/);
    const c = await run(['apply', '--pass', 'insert-comm-fence', '--rules', dir, 'examples/cache_bypass.py']);
    expect(c.err).toBe('');
    expect(c.out).toContain('cold = pl.load(x, [32, 0], [32, 32], cache=pl.CachePolicy.DEFAULT)');
    expect(c.out).not.toContain('cache=pl.CachePolicy.BYPASS');
  });

  const refused: Array<[string, string, RegExp]> = [
    [
      'a keyword that is no name',
      'set_kwarg(C, "not a name", "1") :- stmt_call(_, C, "tile.load").',
      /set_kwarg\(\d+, "not a name", \.\.\.\): the keyword is not a Python name/,
    ],
    [
      'a value that injects lines',
      'set_kwarg(C, "cache", "1)\\nimport os\\nx = (2") :- stmt_call(_, C, "tile.load").',
      /the value is not a DSL expression: it spans several lines/,
    ],
    [
      'a value that closes the call',
      'set_kwarg(C, "cache", "1) + (2") :- stmt_call(_, C, "tile.load").',
      /the value is not a DSL expression/,
    ],
    [
      'a replaced keyword the call does not have',
      'replace_kwarg(C, "cmp", "1") :- stmt_call(_, C, "tile.load").',
      /the call has no keyword cmp=/,
    ],
    [
      'an op that is no op name',
      'insert_call(S, "after", 9, "os.system(\'x\')", "") :- stmt_call(S, _, "tile.load").',
      /is not an op name/,
    ],
    [
      'a bound name that is no name',
      'insert_call(S, "before", 9, "system.fence", "x = 1; y") :- stmt_call(S, _, "tile.load").',
      /the bound name "x = 1; y" is not a Python name/,
    ],
    [
      'a text argument that is no expression',
      'insert_call(S, "after", 9, "system.fence", "") :- stmt_call(S, _, "tile.load").\ncall_arg(S, "after", 9, 0, "text", 0, "x\\nimport os") :- stmt_call(S, _, "tile.load").',
      /argument 0: "text" value .* is not a DSL expression/,
    ],
    [
      'a name argument that is no name',
      'insert_call(S, "after", 9, "system.fence", "") :- stmt_call(S, _, "tile.load").\ncall_arg(S, "after", 9, 0, "name", 0, "a.b") :- stmt_call(S, _, "tile.load").',
      /"name" value "a\.b" is not a Python name/,
    ],
    [
      'a shape of a node that is no type',
      'insert_call(S, "after", 9, "system.fence", "") :- stmt_call(S, _, "tile.load").\ncall_arg(S, "after", 9, 0, "shape", S, "") :- stmt_call(S, _, "tile.load").',
      /"shape" names \d+, which is not a tensor or tile type/,
    ],
    [
      'positions with a gap',
      'insert_call(S, "after", 9, "system.fence", "") :- stmt_call(S, _, "tile.load").\ncall_arg(S, "after", 9, 1, "text", 0, "1") :- stmt_call(S, _, "tile.load").',
      /positions must run 0, 1, \.\.\./,
    ],
    [
      'an argument of no inserted call',
      'call_arg(S, "after", 9, 0, "text", 0, "1") :- stmt_call(S, _, "tile.load").',
      /call_arg at position 0 at \(\d+, "after", 9\) has no insert_call there/,
    ],
    [
      'an unknown value kind',
      'insert_call(S, "after", 9, "system.fence", "") :- stmt_call(S, _, "tile.load").\ncall_arg(S, "after", 9, 0, "code", 0, "1") :- stmt_call(S, _, "tile.load").',
      /the value kind "code" is none of/,
    ],
    [
      'an unknown place',
      'insert_call(S, "inside", 9, "system.fence", "") :- stmt_call(S, _, "tile.load").',
      /the place must be "after" or "before"/,
    ],
  ];
  for (const [what, rule, message] of refused) {
    it(`refuses ${what}: a located bad-edit error, the file untouched`, async () => {
      const p = scratch('ring_allreduce.py');
      const before = readFileSync(p, 'utf8');
      const r = await run(['apply', '--write', '--pass', 'insert-comm-fence', '--rules', ext(rule), p]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/ring_allreduce\.py:\d+:\d+: error\[bad-edit\]/);
      expect(r.err).toMatch(message);
      expect(r.err).not.toContain('internal error');
      expect(readFileSync(p, 'utf8')).toBe(before);
      // audit refuses it the same way (it prints the insertions as fixes).
      const a = await run(['audit', '--pass', 'insert-comm-fence', '--rules', ext(rule), p]);
      expect(a.code).toBe(2);
      expect(a.err).toContain('error[bad-edit]');
    });
  }

  it('reports every bad edit of a run together, before anything is written', async () => {
    const p = scratch('ring_allreduce.py');
    const before = readFileSync(p, 'utf8');
    const rule =
      'set_kwarg(C, "not a name", "1") :- stmt_call(_, C, "tile.load").\ninsert_call(S, "after", 9, "system.fence", "x y") :- stmt_call(S, _, "pld.system.wait").';
    const r = await run(['apply', '--write', '--pass', 'insert-comm-fence', '--rules', ext(rule), p]);
    expect(r.code).toBe(2);
    expect(r.err.match(/error\[bad-edit\]/g)?.length).toBeGreaterThanOrEqual(3);
    expect(readFileSync(p, 'utf8')).toBe(before);
  });
});
