import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RuleProgram } from '../../src/datalog/index.js';
import { type CompiledStore, evaluate, loadProgramCached, newLoadMemo, type RuleCache } from '../../src/datalog/index.js';
import { toPlain } from '../../src/datalog/plan/compiled.js';
import { diskStore } from '../../src/datalog/plan/disk-store.js';
import { contentHash } from '../../src/datalog/plan/rule-cache.js';
import { loadRules } from '../../src/passes/analyze.js';
import { PASSES, rulesDir } from '../../src/passes/registry.js';
import { RuleSession } from '../../src/passes/rule-session.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';
import { renderDiagnostics } from '../../src/report/text.js';

/** A cache in directory `dir` (a fresh object: what a new process would have). */
function cacheIn(dir: string, version = 'v1'): RuleCache & { memory: Map<string, string> } {
  const store = diskStore(dir);
  return { version, stores: [store], write: store, memory: new Map() };
}

/** Everything a program is: its plain form (paths as shown) and its warnings as printed. */
function fingerprint(r: { program: RuleProgram; warnings: Diagnostic[] }): string {
  return `${JSON.stringify(toPlain(r))}\n${renderDiagnostics(r.warnings)}`;
}

/** Evaluates a one-output program and returns the output's tuples. */
function outputOf(program: RuleProgram, rel: string): unknown {
  return evaluate(program, program.newDatabase()).tuples(rel);
}

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'ptolog-cache-'));
}

/** `main.dl` reads `b` from `inc.dl`, found beside it or in `lib/`. */
function project(incText: string): { dir: string; main: string } {
  const dir = tmp();
  mkdirSync(join(dir, 'lib'));
  const main = join(dir, 'main.dl');
  writeFileSync(main, '#include "inc.dl"\n.decl a(x: number)\n.output a\na(X) :- b(X).\n');
  writeFileSync(join(dir, 'lib', 'inc.dl'), incText);
  return { dir, main };
}

const request = (p: { dir: string; main: string }) => ({ files: [p.main], includeDirs: [join(p.dir, 'lib')], libraries: {}, root: p.dir });

/** An entry of `header` (its checksums replaced) and `body` (its lines). */
function resummed(header: string, body: string): string {
  return `${JSON.stringify({ ...(JSON.parse(header) as object), sums: body.split('\n').map(contentHash) })}\n${body}`;
}

/** An entry's body with its first fact's clause id not an integer. */
function forged(body: string): string {
  const out = body.replace(/"rows":\[\d+,/, '"rows":[0.5,');
  expect(out).not.toBe(body);
  return out;
}

/** `text` with its one `from` replaced by `to`. */
function replaced(text: string, from: string, to: string): string {
  expect(text.split(from)).toHaveLength(2);
  return text.replace(from, to);
}

/** The one entry file of a cache directory. */
function entryOf(dir: string): string {
  const names = readdirSync(dir).filter((n) => n.endsWith('.rules'));
  expect(names).toHaveLength(1);
  return join(dir, names[0]!);
}

describe('compiled-rules cache', () => {
  it('gives every shipped contract program exactly as loading it from source does (compiled, then read back)', () => {
    const dir = tmp();
    const cwd = process.cwd();
    // (The sessions share their parses: what is compared is the checked program and its round trip.)
    const parsed = new Map();
    const session = (cache?: RuleCache) => new RuleSession(cwd, cache, new Map(), parsed);
    for (const pass of PASSES) {
      for (const entry of [pass.entry, pass.audit]) {
        const plain = loadRules(entry, [], rulesDir(), [], session());
        const compiled = loadRules(entry, [], rulesDir(), [], session(cacheIn(dir)));
        const read = loadRules(entry, [], rulesDir(), [], session({ ...cacheIn(dir), write: undefined }));
        expect(fingerprint(compiled)).toBe(fingerprint(plain));
        expect(fingerprint(read)).toBe(fingerprint(plain));
        // Read back, every fact is packed (what evaluation loads; no syntax tree made per fact).
        const facts = read.program.clauses.filter((pc) => pc.clause.isFact);
        expect(facts.length).toBeGreaterThan(1000);
        expect(read.program.facts?.clauses).toEqual(facts);
      }
    }
  });

  it('reads an entry back without parsing (what --jobs workers are given)', () => {
    const p = project('.decl b(x: number)\nb(1).\n');
    const first = cacheIn(tmp());
    loadProgramCached(request(p), first);
    const worker: RuleCache = { version: 'v1', stores: [], memory: new Map(first.memory) };
    const r = loadProgramCached(
      request(p),
      worker,
      (x) => x,
      () => {
        throw new Error('parsed');
      },
    );
    expect(outputOf(r.program, 'a')).toEqual([[1]]);
  });

  it('recompiles when an included file changes, or a file appears earlier on the include path', () => {
    const p = project('.decl b(x: number)\nb(1).\n');
    const dir = tmp();
    expect(outputOf(loadProgramCached(request(p), cacheIn(dir)).program, 'a')).toEqual([[1]]);
    writeFileSync(join(p.dir, 'lib', 'inc.dl'), '.decl b(x: number)\nb(2).\n');
    expect(outputOf(loadProgramCached(request(p), cacheIn(dir)).program, 'a')).toEqual([[2]]);
    // Beside main.dl is searched before lib/.
    writeFileSync(join(p.dir, 'inc.dl'), '.decl b(x: number)\nb(3).\n');
    const r = loadProgramCached(request(p), cacheIn(dir));
    expect(outputOf(r.program, 'a')).toEqual([[3]]);
    expect(r.program.sources.map((s) => s.path)).toEqual([p.main, join(p.dir, 'inc.dl')]);
    // And the entry now stored is the current one.
    const again = loadProgramCached(
      request(p),
      cacheIn(dir, 'v1'),
      (x) => x,
      () => {
        throw new Error('parsed');
      },
    );
    expect(outputOf(again.program, 'a')).toEqual([[3]]);
  });

  it('ignores and replaces a truncated, corrupt or foreign entry', () => {
    const p = project('.decl b(x: number)\nb(1).\nb(2).\n');
    const dir = tmp();
    loadProgramCached(request(p), cacheIn(dir));
    const path = entryOf(dir);
    const good = readFileSync(path, 'utf8');
    const nl = good.indexOf('\n');
    const header = JSON.parse(good.slice(0, nl)) as { version: string };
    const damaged = [
      good.slice(0, Math.floor(good.length / 2)),
      good.slice(0, nl),
      '',
      '\u0000\u0001garbage',
      // A changed value inside the body (still valid JSON): the checksum catches it.
      good.slice(0, nl) + good.slice(nl).replace('"b"', '"a"'),
      // Another build's entry (with a checksum of its own).
      `${JSON.stringify({ ...header, version: 'v0' })}${good.slice(nl)}`,
      // A fact that is not well formed, under a checksum that matches it.
      resummed(good.slice(0, nl), forged(good.slice(nl + 1))),
      good.replace('$ROOT/main.dl', '$ROOT/other.dl'),
      // The last line (a part: main.dl's rule) cut off whole, or moved before the program.
      good.slice(0, good.lastIndexOf('\n')),
      resummed(good.slice(0, nl), [...good.slice(nl + 1).split('\n')].reverse().join('\n')),
      // A rule's reference into a part that is not there, under a checksum that matches it.
      resummed(good.slice(0, nl), replaced(good.slice(nl + 1), ',[0,0],[["X"', ',[0,7],[["X"')),
      resummed(good.slice(0, nl), replaced(good.slice(nl + 1), ',[0,0],[["X"', ',[3,0],[["X"')),
      // A rule's summary naming a relation that is not there; a part's clause offsets that do not fit its text.
      resummed(good.slice(0, nl), replaced(good.slice(nl + 1), '[[1,[0],false]]', '[[9,[0],false]]')),
      resummed(good.slice(0, nl), replaced(good.slice(nl + 1), '"flatEdges":[0,1,', '"flatEdges":[0,7,')),
      resummed(good.slice(0, nl), replaced(good.slice(nl + 1), '["a",["x"],["number"],"n",', '["a",["x"],["number"],"nn",')),
      resummed(
        good.slice(0, nl),
        good.slice(nl + 1).replace(/"at":\[0,(\d+)\]/, (_, n: string) => `"at":[0,${Number(n) - 1}]`),
      ),
    ];
    for (const text of damaged) {
      expect(text).not.toBe(good);
      writeFileSync(path, text);
      const r = loadProgramCached(request(p), cacheIn(dir));
      expect(outputOf(r.program, 'a')).toEqual([[1], [2]]);
      expect(readFileSync(path, 'utf8')).toBe(good);
    }
  });

  it('the programs one session reads share their sources and op-catalog facts, also once compiled', () => {
    const dir = tmp();
    const [a, b] = [PASSES[0]!.audit, PASSES[1]!.audit];
    for (const session of [new RuleSession(undefined, cacheIn(dir)), new RuleSession(undefined, cacheIn(dir))]) {
      const x = loadRules(a, [], rulesDir(), [], session).program;
      const y = loadRules(b, [], rulesDir(), [], session).program;
      const catalog = x.sources.find((s) => s.path.endsWith('op_catalog.dl'))!;
      expect(y.sources).toContain(catalog);
      const facts = (p: RuleProgram) => p.clauses.filter((c) => c.clause.isFact && c.clause.loc.source === catalog).map((c) => c.clause);
      expect(facts(x).length).toBeGreaterThan(100);
      expect(new Set(facts(y))).toEqual(new Set(facts(x)));
      expect(facts(y).every((c, i) => c === facts(x)[i])).toBe(true);
      // The op catalog's facts are one part of both entries, decoded once.
      const runs = [...session.loads.parts.values()].filter((p) => p.facts && p.sources[0] === catalog);
      expect(runs).toHaveLength(1);
      expect(runs[0]!.facts!.ids.length).toBe(facts(x).length);
      // And the rules of the library both include: one syntax tree each, decoded once.
      const lib = x.sources.find((s) => s.path.endsWith('lib.dl'))!;
      const rules = (p: RuleProgram) => p.clauses.filter((c) => !c.clause.isFact && c.clause.loc.source === lib).map((c) => c.clause);
      expect(rules(x).length).toBeGreaterThan(20);
      expect(rules(y)).toHaveLength(rules(x).length);
      expect(rules(y).every((c, i) => c === rules(x)[i])).toBe(true);
    }
    // The second session read what the first compiled, and decoded each program once.
    const reader = new RuleSession(undefined, cacheIn(dir));
    loadRules(a, [], rulesDir(), [], reader);
    loadRules(a, [], rulesDir(), [], reader);
    expect(reader.loadCounts()).toEqual({ read: 1, compiled: 0 });
  });

  it("a session's forget() reads the rule files again (an include edited while it runs)", () => {
    const p = project('.decl b(x: number)\nb(1).\n');
    const session = new RuleSession(undefined, cacheIn(tmp()));
    const load = () => loadProgramCached(request(p), session.cache!, (x) => x, undefined, session.loads).program;
    expect(outputOf(load(), 'a')).toEqual([[1]]);
    writeFileSync(join(p.dir, 'lib', 'inc.dl'), '.decl b(x: number)\nb(2).\n');
    session.forget();
    expect(outputOf(load(), 'a')).toEqual([[2]]);
  });

  it('stores an entry in ASCII and reads other characters back as they were written', () => {
    const dir = tmp();
    const main = join(dir, 'main.dl');
    writeFileSync(
      main,
      '.decl a(x: symbol)\n.decl b(x: symbol)\n.output b\na("x\u00b7\u2212y\u{1F600}").\nb(X) :- a(Y), X = cat(Y, "\u00e9").\n',
    );
    const req = { files: [main], includeDirs: [], libraries: {}, root: dir };
    loadProgramCached(req, cacheIn(dir));
    expect(readFileSync(entryOf(dir), 'utf8')).toMatch(/^[\x00-\x7f]*$/);
    const parsed = () => {
      throw new Error('parsed');
    };
    const r = loadProgramCached(req, { ...cacheIn(dir), write: undefined }, (x) => x, parsed);
    expect(outputOf(r.program, 'b')).toEqual([['x\u00b7\u2212y\u{1F600}\u00e9']]);
  });

  it('a store that fails to write or read only costs a compile', () => {
    const p = project('.decl b(x: number)\nb(1).\n');
    const broken: CompiledStore = {
      read: () => 'not an entry',
      write: () => {},
    };
    const file = join(tmp(), 'a-file');
    writeFileSync(file, '');
    const cache: RuleCache = { version: 'v1', stores: [broken, diskStore(join(file, 'sub'))], write: diskStore(join(file, 'sub')) };
    expect(outputOf(loadProgramCached(request(p), cache).program, 'a')).toEqual([[1]]);
  });

  it('stores a large part once, in a file named by its content, which a session reads once for every entry naming it', () => {
    const p = twoMains();
    const dir = tmp();
    const memo = newLoadMemo();
    for (const main of p.mains)
      expect(outputOf(loadProgramCached(requestOf(p, main), cacheIn(dir), (x) => x, undefined, memo).program, 'a')).toEqual([[1], [2]]);
    const names = readdirSync(dir);
    expect(names.filter((n) => n.endsWith('.rules'))).toHaveLength(2);
    const parts = names.filter((n) => n.endsWith('.part'));
    expect(parts).toHaveLength(1); // (big.dl's rules; the mains' own rules and the facts are small: in their entries)
    const [sha, len] = parts[0]!.slice(0, -'.part'.length).split('-');
    for (const n of names.filter((x) => x.endsWith('.rules'))) expect(readFileSync(join(dir, n), 'utf8')).toContain(`\n@${sha}:${len}`);
    // A new process reading both entries: the part file read once, nothing parsed.
    const reads = new Map<string, number>();
    const store = diskStore(dir, false);
    const counting: CompiledStore = {
      read: (n) => {
        reads.set(n, (reads.get(n) ?? 0) + 1);
        return store.read(n);
      },
      write: () => {},
    };
    const again = newLoadMemo();
    for (const main of p.mains) {
      const r = loadProgramCached(requestOf(p, main), { version: 'v1', stores: [counting] }, (x) => x, noParse, again);
      expect(outputOf(r.program, 'a')).toEqual([[1], [2]]);
    }
    expect(reads.get(parts[0]!)).toBe(1);
  });

  it('ignores the entry naming a part file that is damaged, truncated, foreign or missing, and writes it again', () => {
    const p = twoMains();
    const dir = tmp();
    loadProgramCached(requestOf(p, p.mains[0]!), cacheIn(dir));
    const part = join(dir, readdirSync(dir).find((n) => n.endsWith('.part'))!);
    const good = readFileSync(part, 'utf8');
    const damaged = [
      good.slice(0, good.length - 10),
      good.replace('"b"', '"a"'),
      `${good.slice(0, -2)} ]}`,
      // Another text (valid, of the same length) under this name.
      good.replace(/"\$ROOT\/lib\/big.dl"/, '"$ROOT/lib/bog.dl"'),
      undefined,
    ];
    for (const text of damaged) {
      if (text === undefined) rmSync(part);
      else {
        expect(text).not.toBe(good);
        writeFileSync(part, text);
      }
      const r = loadProgramCached(requestOf(p, p.mains[0]!), cacheIn(dir));
      expect(outputOf(r.program, 'a')).toEqual([[1], [2]]);
      expect(readFileSync(part, 'utf8')).toBe(good);
    }
  });
});

/** Never called: a load that would parse a rule file fails. */
function noParse(): never {
  throw new Error('parsed');
}

/** `one.dl` and `two.dl`, each including `lib/big.dl` (forty rules: a part of its own). */
function twoMains(): { dir: string; mains: string[] } {
  const dir = tmp();
  mkdirSync(join(dir, 'lib'));
  const rules = Array.from({ length: 40 }, (_, k) => `.decl c${k}(x: number)\nc${k}(X) :- b(X), X != ${k + 10}.\n`).join('');
  writeFileSync(join(dir, 'lib', 'big.dl'), `.decl b(x: number)\nb(1).\nb(2).\n${rules}`);
  const mains = ['one', 'two'].map((name, k) => {
    const main = join(dir, `${name}.dl`);
    writeFileSync(main, `#include "big.dl"\n.decl a(x: number)\n.output a\na(X) :- c${k}(X).\n`);
    return main;
  });
  return { dir, mains };
}

function requestOf(p: { dir: string }, main: string) {
  return { files: [main], includeDirs: [join(p.dir, 'lib')], libraries: {}, root: p.dir };
}
