/**
 * The contract audit's path questions (rules/insert_comm_fence/comm_contract.dl) are answered in linear time:
 * paths stop at the first notify / the next wait and hand over between writes of one class.
 * Differential property against the plain quadratic formulation
 * (fixtures/comm_contract_reference.dl): the same writes are reported, at a notify the write
 * really reaches unreleased, or at the exit; the same reads are stale, after a wait they
 * really follow without an invalidate.
 */

import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { evaluate, loadProgram } from '../../src/datalog/index.js';
import { extractFacts } from '../../src/facts/extract.js';
import { parseModule } from '../../src/frontend/index.js';
import { arbCommProgram, commModuleText } from '../../src/gen/comm.js';
import { printProgram } from '../../src/ir/print.js';
import { databaseSink } from '../../src/passes/database-sink.js';
import { applyPasses } from '../../src/passes/pipeline.js';
import { passByName } from '../../src/passes/registry.js';
import { runs as scaled } from '../runs.js';
import { session } from '../session.js';

const { program } = loadProgram([join(__dirname, 'fixtures', 'comm_contract_reference.dl')]);
const pass = passByName('insert-comm-fence')!;

const key = (t: readonly unknown[]): string => t.join(',');
const set = (rows: unknown[][], cols: number[]): string[] => [...new Set(rows.map((r) => key(cols.map((c) => r[c]))))].sort();

/** Turns a random subset of the marker lines into `pass`, so writes are released in every arrangement. */
function dropMarkers(text: string, keep: readonly boolean[]): string {
  let i = 0;
  return text
    .split('\n')
    .map((line) =>
      !/pl\.system\.(fence|cacheinvalid)\(/.test(line) || (keep[i++ % keep.length] ?? true) ? line : line.replace(/\S.*$/, 'pass'),
    )
    .join('\n');
}

test.prop([arbCommProgram(), fc.array(fc.boolean(), { minLength: 1, maxLength: 16 })], scaled(80))(
  'linear audit = reference path audit (reported writes, reads, and their witnesses)',
  (p, keep) => {
    const applied = applyPasses(commModuleText(p, printProgram), 'gen.py', [pass], { session }).text;
    const text = dropMarkers(applied, keep);
    const module = parseModule(text, 'gen.py');
    const db = program.newDatabase();
    const sink = databaseSink(program, db);
    extractFacts(module, sink);
    sink.add('audit_stage', ['as-written']); // the paths of the text as it stands
    const r = evaluate(program, db);
    const atNotify = r.tuples('unreleased_at_notify');
    expect(set(atNotify, [0])).toEqual(set(r.tuples('ref_notify'), [0]));
    const reachable = new Set(r.tuples('ref_notify').map(key));
    for (const t of atNotify) expect(reachable.has(key(t)), `witness ${key(t)}`).toBe(true);
    expect(
      set(
        r.tuples('unreleased_at_exit').filter((t) => !atNotify.some((a) => a[0] === t[0])),
        [0],
      ),
    ).toEqual(set(r.tuples('ref_exit_only'), [0]));
    const stale = r.tuples('stale_read');
    expect(set(stale, [0])).toEqual(set(r.tuples('ref_stale_read'), [0]));
    const staleRef = new Set(r.tuples('ref_stale_read').map(key));
    for (const t of stale) expect(staleRef.has(key(t)), `witness ${key(t)}`).toBe(true);
  },
);
