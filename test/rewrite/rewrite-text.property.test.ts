/**
 * `rewriteText` (apply's text-only rewrite) against `rewrite` (the tree rewrite the re-parse
 * properties check): the same patched text, the same count, and the tree left without the
 * inserted statements; on generated communication kernels through InsertCommFence, and on
 * generated orchestration programs through ExpandManualPhaseFence (insertions before loops,
 * replaced deps lists) with the tree rewrite given the edits as objects, not columns.
 */

import { test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { parseModule } from '../../src/frontend/index.js';
import { arbCommProgram, commModuleText } from '../../src/gen/comm.js';
import { arbOrchestrationProgram, orchestrationModuleText } from '../../src/gen/orchestration.js';
import { structurallyEqual } from '../../src/ir/equal.js';
import { printProgram } from '../../src/ir/print.js';
import { analyze } from '../../src/passes/analyze.js';
import { readEdits } from '../../src/passes/read-edits.js';
import { passByName } from '../../src/passes/registry.js';
import type { EditSet } from '../../src/rewrite/edits.js';
import { rewrite, rewriteText } from '../../src/rewrite/rewrite.js';
import { session } from '../session.js';

const pass = passByName('insert-comm-fence')!;
const phase = passByName('expand-manual-phase-fence')!;

/** The edits of a set as plain objects (what a library caller may build by hand). */
const objects = (e: EditSet): EditSet => ({
  insertCall: e.insertCall,
  orphanArgs: e.orphanArgs,
  replaceDeps: e.replaceDeps,
  setKwarg: e.setKwarg,
  replaceKwarg: e.replaceKwarg,
  removeFuncAttr: e.removeFuncAttr,
  bad: e.bad,
});

describe('rewriteText', () => {
  test.prop([arbCommProgram()], { numRuns: 40 })('patches the text exactly as rewrite does', (p) => {
    const text = commModuleText(p, printProgram);
    const tree = parseModule(text, 'gen.py');
    const a = analyze(tree, pass.entry, [], { session });
    const byTree = rewrite(tree, a.table, readEdits(a.result));
    const plain = parseModule(text, 'gen.py');
    const b = analyze(plain, pass.entry, [], { session });
    const byText = rewriteText(plain, b.table, readEdits(b.result));
    expect(byText.text).toBe(byTree.text);
    expect(byText.applied).toBe(byTree.applied);
    expect(byText.insertedLines).toEqual(byTree.insertedLines);
    // The text-only rewrite splices nothing into the tree.
    if (byTree.applied > 0) expect(structurallyEqual(plain, parseModule(text, 'gen.py'))).toBe(true);
  });

  test.prop([arbOrchestrationProgram()], { numRuns: 40 })(
    'patches an orchestration program exactly as rewrite does from edit objects',
    (p) => {
      const text = orchestrationModuleText(p, printProgram);
      const tree = parseModule(text, 'gen.py');
      const a = analyze(tree, phase.entry, [], { session });
      const byTree = rewrite(tree, a.table, objects(readEdits(a.result)));
      const plain = parseModule(text, 'gen.py');
      const b = analyze(plain, phase.entry, [], { session });
      const byText = rewriteText(plain, b.table, readEdits(b.result));
      expect(byText.text).toBe(byTree.text);
      expect(byText.applied).toBe(byTree.applied);
      expect(byText.insertedLines).toEqual(byTree.insertedLines);
    },
  );
});
