import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type EvaluationStopped, EvaluationTimeout, evaluate, loadProgram, TupleLimitExceeded } from '../../src/datalog/index.js';
import { flattenDeepGroups } from '../../src/datalog/syntax/nesting.js';
import { DiagnosticError } from '../../src/report/diagnostic.js';

/** The codes and messages of the errors loading `text` raises. */
function loadErrors(text: string): string[] {
  try {
    loadProgram([{ path: 'test.dl', text }]);
    return [];
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    return e.diagnostics.map((d) => `${d.code}: ${d.message}`);
  }
}

function values(text: string, rel = 'a'): unknown[] {
  const { program } = loadProgram([{ path: 'test.dl', text }]);
  return evaluate(program, program.newDatabase())
    .tuples(rel)
    .map((t) => t[0]);
}

const A = '.decl a(x: number)\n.output a\n';

describe('rule files nested deeply', () => {
  it('5,000 nested parentheses around a term are parsed in chunks', () => {
    expect(values(`${A}a(${'('.repeat(5000)}1 + 2${')'.repeat(5000)}).`)).toEqual([3]);
  });

  it('a 1,000-term sum in a fact and in a rule body evaluates; a deeper term is a located error', () => {
    expect(values(`${A}a(${Array(1000).fill('1').join(' + ')}).\na(X) :- X = ${Array(1000).fill('2').join(' - ')}.`).sort()).toEqual(
      [-1996, 1000].sort(),
    );
    expect(loadErrors(`${A}a(${Array(1300).fill('1').join(' * ')}).`)).toEqual([
      'nesting-too-deep: this term is nested 1300 levels deep; ptolog accepts 1200',
    ]);
  });

  it('operator precedence and associativity survive the flat operator chains', () => {
    expect(values(`${A}a(1 + 2 * 3 - 4 / 2 % 3 - -1 * - - 2).`)).toEqual([1 + 2 * 3 - ((4 / 2) % 3) - -1 * 2]);
    expect(values(`${A}a(10 - 3 - 2).\na(2 * (3 + 4) * 5).`).sort()).toEqual([5, 70].sort());
  });

  it('deeply parenthesised literals are a located error, not a stack overflow', () => {
    expect(loadErrors(`${A}a(X) :- X = 1, ${'('.repeat(500)}X = 1${')'.repeat(500)}.`)[0]).toMatch(
      /^nesting-too-deep: parentheses around literals/,
    );
  });
});

describe('binary files', () => {
  /** A megabyte of pseudo-random bytes, as a UTF-8 reading of them gives (brackets nest thousands deep). */
  const junk = (): string => {
    let x = 12345;
    const bytes = Buffer.alloc(1 << 20);
    for (let i = 0; i < bytes.length; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      bytes[i] = x >>> 24;
    }
    // Half a percent of the bytes are opening brackets, a little fewer closing ones.
    for (let i = 0; i < bytes.length; i += 180) bytes[i] = 40;
    for (let i = 90; i < bytes.length; i += 200) bytes[i] = 41;
    return bytes.toString('utf8');
  };

  it('the deep groups of a binary file are tried as terms on their own text, within a bound of the file size', () => {
    const text = junk();
    let tried = 0;
    flattenDeepGroups(
      text,
      (content) => {
        tried += content.length;
        return undefined;
      },
      new Map(),
    );
    expect(tried).toBeLessThanOrEqual(text.length);
  });

  it('an included binary file is a syntax error at its first bytes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-bin-'));
    writeFileSync(join(dir, 'bin.dl'), junk());
    const errs = loadErrors(`#include "${join(dir, 'bin.dl')}"\n${A}`);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(/^syntax-error: expected .* but found/);
  });
});

describe('evaluation bounds', () => {
  const N = '.decl n(x: number)\n.output n\nn(0).\nn(X + 1) :- n(X).\n';

  it('--max-tuples stops a non-terminating rule, located at the relation that grew', () => {
    const { program } = loadProgram([{ path: 'test.dl', text: N }]);
    let err: unknown;
    try {
      evaluate(program, program.newDatabase(), { maxTuples: 500 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TupleLimitExceeded);
    const d = (err as EvaluationStopped).diagnostics[0]!;
    expect(d.code).toBe('too-many-tuples');
    expect(d.message).toContain('n grew past 500 tuples');
    expect(d.location?.source.position(d.location.start)).toMatchObject({ line: 1 });
  });

  it('a deadline stops it too, naming the relation', () => {
    const { program } = loadProgram([{ path: 'test.dl', text: `.decl m(x: number)\n.output m\nm(1).\n${N}` }]);
    let err: unknown;
    try {
      evaluate(program, program.newDatabase(), { deadline: performance.now() + 50, timeoutSeconds: 0.05 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EvaluationTimeout);
    expect((err as EvaluationStopped).relation).toBe('n');
    expect((err as EvaluationStopped).diagnostics[0]!.message).toMatch(/within 0.05 s .*n grew most/);
  });

  it('a deadline stops the long join of one rule inside a non-recursive stratum, naming the relation it derives', () => {
    const rows = Array.from({ length: 300 }, (_, i) => `v(${i}).`).join('\n');
    const text = `.decl v(x: number)\n${rows}\n.decl cube(x: number, y: number, z: number)\n.output cube\ncube(X, Y, Z) :- v(X), v(Y), v(Z).\n`;
    const { program } = loadProgram([{ path: 'test.dl', text }]);
    let err: unknown;
    try {
      evaluate(program, program.newDatabase(), { timeoutSeconds: 0.2 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EvaluationTimeout);
    const d = (err as EvaluationStopped).diagnostics[0]!;
    expect(d.code).toBe('evaluation-timeout');
    expect(d.message).toMatch(/within 0.2 s .*cube grew most, to \d+ tuples/);
    expect(d.location?.source.position(d.location.start)).toMatchObject({ line: 302 });
  });

  it('a bound that is not reached changes nothing', () => {
    const { program } = loadProgram([{ path: 'test.dl', text: `${A}a(1).\na(2).\na(X + 1) :- a(X), X < 10.` }]);
    expect(evaluate(program, program.newDatabase(), { maxTuples: 10, deadline: performance.now() + 60_000 }).size('a')).toBe(10);
  });
});

describe('includes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-inc-'));
  mkdirSync(join(dir, 'lib', 'ptolog'), { recursive: true });
  mkdirSync(join(dir, 'shipped'), { recursive: true });
  writeFileSync(join(dir, 'lib', 'one.dl'), '.decl one(x: number)\none(1).\n');
  writeFileSync(join(dir, 'shipped', 'two.dl'), '.decl two(x: number)\ntwo(2).\n');

  it('an absolute path is read as it is', () => {
    const text = `#include "${join(dir, 'lib', 'one.dl')}"\n${A}a(X) :- one(X).`;
    expect(values(text)).toEqual([1]);
  });

  it('-I directories serve quoted and <...> includes; <ptolog/...> is the library directory', () => {
    const text = `#include "one.dl"\n#include <ptolog/two.dl>\n${A}a(X) :- one(X).\na(X) :- two(X).`;
    const { program } = loadProgram([{ path: join(dir, 'main.dl'), text }], undefined, [join(dir, 'lib')], {
      ptolog: join(dir, 'shipped'),
    });
    expect(evaluate(program, program.newDatabase()).size('a')).toBe(2);
  });

  it('devices and directories are not read', () => {
    const errs = loadErrors(`#include "/dev/zero"\n#include "${dir}"\n${A}`);
    expect(errs).toEqual([
      'include-not-found: the included path /dev/zero is a character device, not a regular file',
      `include-not-found: the included path ${dir} is a directory, not a regular file`,
    ]);
  });

  it('a rule file past the size bound is a located error naming the bound, never read whole', () => {
    const sparse = join(dir, 'sparse.dl');
    writeFileSync(sparse, '');
    truncateSync(sparse, 3 * 1024 ** 3);
    const big = join(dir, 'big.dl');
    writeFileSync(big, '');
    truncateSync(big, 700 * 1024 ** 2);
    const errs = loadErrors(`#include "/proc/self/pagemap"\n#include "${sparse}"\n#include "${big}"\n${A}`);
    expect(errs).toEqual([
      'file-too-large: the included file /proc/self/pagemap holds more than the 16 MB (16777216 bytes) ptolog reads as a rule file',
      `file-too-large: the included file ${sparse} holds 3072 MB, more than the 16 MB (16777216 bytes) ptolog reads as a rule file`,
      `file-too-large: the included file ${big} holds 700 MB, more than the 16 MB (16777216 bytes) ptolog reads as a rule file`,
    ]);
    try {
      loadProgram([sparse]);
    } catch (e) {
      expect((e as DiagnosticError).diagnostics.map((d) => [d.code, d.path])).toEqual([['file-too-large', sparse]]);
    }
    expect.assertions(2);
  });

  it('a file re-declaring many relations of another is one error, a few are one per relation', () => {
    const decls = Array.from({ length: 40 }, (_, i) => `.decl r${i}(x: number)`).join('\n');
    writeFileSync(join(dir, 'copy1.dl'), decls);
    writeFileSync(join(dir, 'copy2.dl'), decls);
    const errs = loadErrors(`#include "${join(dir, 'copy1.dl')}"\n#include "${join(dir, 'copy2.dl')}"\n.decl r0(x: number)\n`);
    expect(errs).toHaveLength(2);
    // r0 is first declared in test.dl (loaded before its includes): once, for copy1.dl.
    expect(errs[0]).toBe('duplicate-declaration: the relation r0 is already declared');
    expect(errs[1]).toMatch(/copy2.dl declares 39 relations that .*copy1.dl already declares \(r1, r2, r3, r4, r5 and 34 more\)/);
  });
});

describe('bounds and include paths on the kernel commands', () => {
  it('audit --max-tuples stops a non-terminating extension rule found through -I, naming its relation (exit 2)', async () => {
    const { main } = await import('../../src/cli/main.js');
    const dir = mkdtempSync(join(tmpdir(), 'ptolog-bound-'));
    mkdirSync(join(dir, 'inc'));
    writeFileSync(join(dir, 'inc', 'grow.dl'), '.decl grow(n: number)\ngrow(0).\ngrow(N + 1) :- grow(N).\n');
    writeFileSync(
      join(dir, 'ext.dl'),
      '#include <ptolog/insert_comm_fence/insert_comm_fence.dl>\n#include "grow.dl"\nwait_op("x") :- grow(N), N < 0.\n',
    );
    let err = '';
    const code = await main(
      [
        'audit',
        '--rules',
        join(dir, 'ext.dl'),
        '-I',
        join(dir, 'inc'),
        '--pass',
        'insert-comm-fence',
        '--max-tuples',
        '20000',
        'examples/phase_fence.py',
      ],
      {
        stdout: () => {},
        stderr: (t) => (err += t),
      },
    );
    expect(code).toBe(2);
    expect(err).toContain('grow.dl:1:7: error[too-many-tuples]: rule evaluation stopped: grow grew past 20000 tuples (--max-tuples 20000)');
  });
});
