// A file with no PyPTO kernel is decided before any rule is loaded (issue 28 item 7): a rules
// root that does not exist is then never read.
import { describe, expect, it } from 'vitest';
import { applyPasses, auditText } from '../../src/passes/pipeline.js';
import { PASSES } from '../../src/passes/registry.js';

const missingRoot = { rulesRoot: '/nonexistent/ptolog-rules' };

describe('no kernel: no rules loaded', () => {
  const plain = 'import os\n\n@functools.cache\ndef f(x):\n    return os.path.join(x, "y")\n\nBIG = 10**30\n';

  it('audit gives the no-program note alone (no inexact-number note without a kernel)', () => {
    const ds = auditText(plain, 'plain.py', PASSES, missingRoot);
    expect(ds.map((d) => d.code)).toEqual(['no-program']);
  });

  it('apply leaves the text as it is', () => {
    const r = applyPasses(plain, 'plain.py', PASSES, missingRoot);
    expect(r.text).toBe(plain);
    expect(r.warnings.map((d) => d.code)).toEqual(['no-program']);
    expect(r.errors).toEqual([]);
  });

  it('a file with a kernel still loads the rules (the missing root is an error)', () => {
    const k = 'import pypto.language as pl\n\n@pl.jit.incore\ndef k(x: pl.Tensor[[8], pl.FP32]):\n    return x\n';
    expect(() => auditText(k, 'k.py', PASSES, missingRoot)).toThrow();
    // (Also behind an alias no decorator name gives away.)
    const aliased =
      'import pypto.language as pl\nfrom pypto.jit import jit as J\n\n@J.incore\ndef k(x: pl.Tensor[[8], pl.FP32]):\n    return x\n';
    expect(() => auditText(aliased, 'k.py', PASSES, missingRoot)).toThrow();
  });
});
