// The editor's incremental audit (src/runner/incremental.ts): an edit inside one function
// re-analyses only that function's unit (its callers and callees), the other units' findings
// are reused; whatever the edits, the findings are those of a whole audit of the same text.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { sortDiagnostics } from '../../src/passes/findings.js';
import { PASSES } from '../../src/passes/registry.js';
import { RuleSession } from '../../src/passes/rule-session.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';
import { auditUnitsSteps, type ProgramCache, type ProgramsAudit } from '../../src/runner/incremental.js';
import { Runner } from '../../src/runner/runner.js';
import { analysisUnits } from '../../src/runner/units.js';

const session = new RuleSession();
const runner = new Runner({ passes: PASSES, session, memory: { kind: 'tree' } });
const PATH = 'mixed.py';

const SIG = `        self,
        data: pl.InOut[pl.Tensor[[4, 64], pl.FP32]],
        win: pld.DistributedTensor[[4, 64], pl.FP32],
        signal: pld.DistributedTensor[[1, 4], pl.INT32],
        peer: pl.Scalar[pl.INT32],
    ):`;

/** A ring step kernel (findings: a publishing write and a wait without their markers). */
const ring = (name: string): string => `    @pl.function(type=pl.FunctionType.InCore)
    def ${name}(
${SIG}
        for step in pl.range(3):
            chunk = pl.load(data, [step, 0], [1, 64])
            pld.tile.remote_store(chunk, target=win, peer=peer, offsets=[step, 0])
            pld.system.notify(target=signal, peer=peer, offsets=[0, step], value=1, op=pld.NotifyOp.AtomicAdd)
            pld.system.wait(signal=signal, offsets=[0, step], expected=1, cmp=pld.WaitCmp.Ge)
            incoming = pl.load(win, [step, 0], [1, 64])
            pl.store(incoming, [step, 0], data)
`;

/** One program of several functions: kernels, a kernel calling an inline helper, an orchestration calling two kernels, a cache policy. */
const MIXED = `import pypto.language as pl
import pypto.language.distributed as pld


@pl.inline
def put_row(t: pl.Tile[[1, 8], pl.FP32], dst: pl.Tensor[[1, 8], pl.FP32]):
    pl.store(t, [0, 0], dst)


@pl.program
class Mixed:
${ring('first')}
${ring('second')}
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32], sig: pld.DistributedTensor[[1, 4], pl.INT32], peer: pl.Scalar[pl.INT32]):
        put_row(t, win)
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)

    @pl.function(type=pl.FunctionType.InCore)
    def tiled(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        y: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    ):
        hot = pl.load(x, [0, 0], [32, 32], cache=pl.CachePolicy.DEFAULT)
        cold = pl.load(x, [32, 0], [32, 32], cache=pl.CachePolicy.BYPASS)
        s = pl.add(hot, cold)
        pl.store(s, [0, 0], y)

${ring('third')}
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
${SIG}
        self.second(data, win, signal, peer)
        self.third(data, win, signal, peer)
        return data
`;

/** A diagnostic as a line: what the editor shows of it. */
const shown = (d: Diagnostic): string =>
  JSON.stringify([d.severity, d.code, d.message, d.location?.start, d.location?.end, d.fixEdits ?? null, d.fix ?? null]);

const incremental = (text: string, previous?: ProgramCache): ProgramsAudit => {
  const steps = auditUnitsSteps(runner, text, PATH, '', previous);
  for (let s = steps.next(); ; s = steps.next()) if (s.done) return s.value;
};

/** `ptolog audit`'s findings on the whole text, in its order. */
const whole = (text: string): string[] => {
  const r = runner.audit(text, PATH);
  return sortDiagnostics([...r.readErrors, ...r.findings]).map(shown);
};

/** The offset of `needle` in MIXED after `after`. */
const at = (needle: string, after = ''): number => MIXED.indexOf(needle, MIXED.indexOf(after));

describe('incremental audit, function by function', () => {
  it('makes one unit per function and its callers / callees, the inline helper with its caller', () => {
    const m = runner.parse(MIXED, PATH);
    const units = analysisUnits(m.source, m.programs).map((u) =>
      u.programs.flatMap((p, k) => [...u.functions.get(u.indices[k]!)!].map((f) => `${p.name}.${f}`)).sort(),
    );
    expect(units).toEqual([['Mixed.first'], ['Mixed.run', 'Mixed.second', 'Mixed.third'], ['Mixed.step', 'jit.put_row'], ['Mixed.tiled']]);
  });

  it("an edit inside one function re-analyses its unit alone; the others' findings are reused and moved", () => {
    const first = incremental(MIXED);
    expect([first.analysed, first.total]).toEqual([4, 4]);
    expect(first.findings.map((f) => shown(f.diagnostic))).toEqual(whole(MIXED));
    // One character inside `first` (no line added): only its unit; the findings after it move.
    const i = at('chunk = pl.load', 'def first');
    const edited = `${MIXED.slice(0, i)}chunk  = pl.load${MIXED.slice(i + 'chunk = pl.load'.length)}`;
    const next = incremental(edited, first.cache);
    expect([next.analysed, next.total]).toEqual([1, 4]);
    expect(next.findings.map((f) => shown(f.diagnostic))).toEqual(whole(edited));
    // Inside `tiled`: only it again.
    const again = edited.replace('s = pl.add(hot, cold)', 's = pl.add(cold, hot)');
    const third = incremental(again, next.cache);
    expect([third.analysed, third.total]).toEqual([1, 4]);
    expect(third.findings.map((f) => shown(f.diagnostic))).toEqual(whole(again));
  });

  it('a line added inside a method or between two re-analyses the units after it, not those before', () => {
    const first = incremental(MIXED);
    const i = MIXED.indexOf('        for step', MIXED.indexOf('def second'));
    const edited = `${MIXED.slice(0, i)}\n${MIXED.slice(i)}`;
    const next = incremental(edited, first.cache);
    // (`first` before it is reused; `second`'s unit, and `step`'s and `tiled`'s after it, are analysed.)
    expect([next.analysed, next.total]).toEqual([3, 4]);
    expect(next.findings.map((f) => shown(f.diagnostic))).toEqual(whole(edited));
    // A blank line between `first` and `second` (outside every function): the same.
    const j = MIXED.lastIndexOf('    @pl.function', MIXED.indexOf('def second'));
    const blank = `${MIXED.slice(0, j)}\n${MIXED.slice(j)}`;
    const third = incremental(blank, first.cache);
    expect([third.analysed, third.total]).toEqual([3, 4]);
    expect(third.findings.map((f) => shown(f.diagnostic))).toEqual(whole(blank));
  });

  it("editing the inline helper re-analyses its caller and re-publishes the caller's findings", () => {
    const first = incremental(MIXED);
    // The helper no longer writes: the caller's window store is gone with it.
    const edited = MIXED.replace('    pl.store(t, [0, 0], dst)', '    pl.load(dst, [0, 0], [1, 8])');
    const next = incremental(edited, first.cache);
    expect([next.analysed, next.total]).toEqual([1, 4]);
    expect(next.findings.map((f) => shown(f.diagnostic))).toEqual(whole(edited));
    expect(next.findings.map((f) => shown(f.diagnostic))).not.toEqual(first.findings.map((f) => shown(f.diagnostic)));
  });

  it('a syntax error is located as a whole audit locates it, whichever functions the parse reused (found by the property)', () => {
    // The first line doubled, then a kernel's `for` header: "expected an indented block". Reusing
    // the unchanged kernels let the parser chunk the erroneous one differently, and report the
    // error one line further on.
    const doubled = (text: string, k: number): string => {
      const ls = text.split('\n');
      ls.splice(k, 0, ls[k]!);
      return ls.join('\n');
    };
    const first = doubled(MIXED, 0);
    expect(first.split('\n')[68]).toBe('        for step in pl.range(3):');
    const edited = doubled(first, 68);
    const next = incremental(edited, incremental(first).cache);
    expect(next.findings.some((f) => f.diagnostic.code === 'syntax-error')).toBe(true);
    expect(next.findings.map((f) => shown(f.diagnostic))).toEqual(whole(edited));
  });

  /** Applies each edit to MIXED in turn; after each, the incremental findings (cache carried over) are a whole audit's. */
  function replayAgainstWhole<E>(edits: readonly E[], apply: (text: string, e: E) => string): void {
    let text = MIXED;
    let cache: ProgramCache = incremental(text).cache;
    for (const e of edits) {
      text = apply(text, e);
      const r = incremental(text, cache);
      expect(r.findings.map((f) => shown(f.diagnostic))).toEqual(whole(text));
      cache = r.cache;
    }
  }

  const lines = MIXED.split('\n');
  /** An edit of one line: a space appended, the line removed, doubled, a blank line before it, a token renamed. */
  const edit = fc.record({ line: fc.nat({ max: lines.length - 1 }), kind: fc.constantFrom('space', 'drop', 'double', 'blank', 'rename') });
  test.prop([fc.array(edit, { minLength: 1, maxLength: 3 })], { numRuns: 12 })(
    'after any edits, the incremental findings are those of a whole audit',
    (edits) =>
      replayAgainstWhole(edits, (text, e) => {
        const ls = text.split('\n');
        const k = Math.min(e.line, ls.length - 1);
        const l = ls[k]!;
        if (e.kind === 'space') ls[k] = `${l} `;
        else if (e.kind === 'drop') ls.splice(k, 1);
        else if (e.kind === 'double') ls.splice(k, 0, l);
        else if (e.kind === 'blank') ls.splice(k, 0, '');
        else ls[k] = l.replace('remote_store', 'store').replace('second', 'other');
        return ls.join('\n');
      }),
    300_000,
  );

  /** A character-level edit (reusing the parse of the functions it leaves alone), or one of what decides how others read. */
  const SWAPS: [string, string][] = [
    ['@pl.inline\n', '\n'],
    [' as pl\n', ' as pq\n'],
    ['pl.store(t, [0, 0], dst)', 'pl.load(dst, [0, 0], [1, 8])'],
    ['(self,', '(self, extra,'],
    ['\n\n', '\n\n\n'],
  ];
  const charEdit = fc.oneof(
    fc.record({
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      drop: fc.nat({ max: 2 }),
      insert: fc.constantFrom(' ', 'x', '\n', '\n        ', '#', ''),
    }),
    fc.record({ swap: fc.constantFrom(...SWAPS) }),
  );
  test.prop([fc.array(charEdit, { minLength: 1, maxLength: 3 })], { numRuns: 25 })(
    'after characters typed or removed anywhere (decorators, imports, helpers, lines before reused functions), the findings are those of a whole audit',
    (edits) =>
      replayAgainstWhole(edits, (text, e) => {
        if (!('at' in e)) return text.replace(e.swap[0], e.swap[1]);
        const i = Math.floor(e.at * text.length);
        return text.slice(0, i) + e.insert + text.slice(Math.min(text.length, i + e.drop));
      }),
    300_000,
  );

  it('moves no reused fix when a blank is appended after a statement of an unchanged helper (found by the property)', () => {
    // A trailing space on the helper's statement line moves the next line, where its fix is
    // inserted: the helper's unit must be analysed again, not reused with the old offsets.
    let text = MIXED;
    let cache: ProgramCache = incremental(text).cache;
    for (const line of [6, 0]) {
      const ls = text.split('\n');
      ls[line] = `${ls[line]} `;
      text = ls.join('\n');
      const r = incremental(text, cache);
      expect(r.findings.map((f) => shown(f.diagnostic))).toEqual(whole(text));
      cache = r.cache;
    }
  });
});
