import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { summarize } from '../../src/datalog/check/clause-summary.js';
import { isBodilessFact, isFactClause, type RuleProgram, summaryOf } from '../../src/datalog/check/program.js';
import { projectInputs, type RuleCache } from '../../src/datalog/index.js';
import { toPlain } from '../../src/datalog/plan/compiled.js';
import { diskStore } from '../../src/datalog/plan/disk-store.js';
import { loadRules } from '../../src/passes/analyze.js';
import { PIPELINE_READS } from '../../src/passes/pipeline.js';
import { PASSES, rulesDir } from '../../src/passes/registry.js';
import { RuleSession } from '../../src/passes/rule-session.js';

/** A fresh cache in `dir` (what a new process would have), writing only when `write`. */
function cacheIn(dir: string, write: boolean): RuleCache {
  const store = diskStore(dir);
  return { version: 'v1', stores: [store], ...(write ? { write: store } : {}) };
}

/** Every shipped contract program, loaded from its rule files and read back from a compiled entry. */
function shippedPrograms(only?: string): { name: string; plain: RuleProgram; read: RuleProgram }[] {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-summary-'));
  const parsed = new Map();
  const session = (cache?: RuleCache) => new RuleSession(process.cwd(), cache, new Map(), parsed);
  const out: { name: string; plain: RuleProgram; read: RuleProgram }[] = [];
  for (const pass of PASSES) {
    for (const entry of [pass.entry, pass.audit]) {
      if (only !== undefined && entry !== only) continue;
      const plain = loadRules(entry, [], rulesDir(), [], session()).program;
      loadRules(entry, [], rulesDir(), [], session(cacheIn(dir, true)));
      const read = loadRules(entry, [], rulesDir(), [], session(cacheIn(dir, false))).program;
      out.push({ name: entry, plain, read });
    }
  }
  return out;
}

/** The summary `program`'s clause `i` should have: computed from its tree. */
function fromTree(program: RuleProgram, i: number) {
  return summarize(program.clauses[i]!.clause, (rel) => program.byName.get(rel)?.id);
}

describe('clause summaries of compiled rules', () => {
  const programs = shippedPrograms();

  it('every rule read from an entry carries a summary equal to what its tree gives', () => {
    for (const { read } of programs) {
      const rules = read.clauses.filter((pc) => !isFactClause(pc));
      expect(rules.length).toBeGreaterThan(50);
      for (const pc of rules) {
        expect(pc.summary).toBeDefined();
        expect(pc.summary).toEqual(fromTree(read, pc.id));
        expect(isBodilessFact(pc)).toBe(pc.clause.isFact && pc.clause.body.length === 0);
      }
    }
  });

  it("a rule's tree is parsed when first read, once", () => {
    const { read } = shippedPrograms(PASSES[0]!.audit)[0]!;
    const rule = read.clauses.find((pc) => !isFactClause(pc))!;
    const parse = vi.spyOn(JSON, 'parse');
    try {
      // (Its summary is at hand: no parse.)
      expect(summaryOf(rule, read).positive.length).toBeGreaterThanOrEqual(0);
      expect(parse).not.toHaveBeenCalled();
      const clause = rule.clause;
      expect(parse).toHaveBeenCalledTimes(1);
      expect(String(parse.mock.calls[0]![0])).toMatch(/^\{"head":/);
      expect(rule.clause).toBe(clause);
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('projects a program read from an entry as it projects the program loaded from its rule files', () => {
    let cut = 0;
    for (const { plain, read } of programs) {
      if (projectInputs(read, PIPELINE_READS) !== read) cut++;
      for (const keep of [PIPELINE_READS, new Set<string>(), new Set(['finding'])]) {
        const a = projectInputs(read, keep);
        const b = projectInputs(plain, keep);
        expect(JSON.stringify(toPlain({ program: a, warnings: [] }))).toBe(JSON.stringify(toPlain({ program: b, warnings: [] })));
        for (const pc of a.clauses) if (pc.summary) expect(pc.summary).toEqual(fromTree(a, pc.id));
      }
    }
    expect(cut).toBeGreaterThan(0);
  });
});
