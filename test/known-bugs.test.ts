/**
 * Known bugs, each pinned as a test that is expected to fail (`it.fails`) with the issue it
 * belongs to. When a fix lands the test starts passing, vitest reports it as a failure, and
 * the case moves to the goldens.
 */
import { describe, expect, it } from 'vitest';
import { moduleErrors, parseModuleIsolated } from '../src/frontend/index.js';

describe('known bugs', () => {
  // Issue #9 (Python's lexical rules): a backslash-newline inside a string literal continues the
  // string in Python also when the newline is CRLF; ptolog reads it as a syntax error there.
  it.fails('#9: a string continued by backslash + CRLF is one string literal', () => {
    const text = [
      'import pypto.language as pl',
      'import pypto.language.distributed as pld',
      '',
      '@pl.program',
      'class K:',
      '    @pl.function(type=pl.FunctionType.InCore)',
      '    def k(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):',
      '        x = "ab\\',
      'cd"; pl.store(t, [0, 0], win)',
      '',
    ].join('\r\n');
    expect(moduleErrors(parseModuleIsolated(text, 'k.py')).map((d) => d.message)).toEqual([]);
  });

  // The same text with LF newlines is read (the control case: the bug is the CRLF).
  it('#9 control: a string continued by backslash + LF is one string literal', () => {
    const text = [
      'import pypto.language as pl',
      'import pypto.language.distributed as pld',
      '',
      '@pl.program',
      'class K:',
      '    @pl.function(type=pl.FunctionType.InCore)',
      '    def k(self, t: pl.Tile[[1, 8], pl.FP32], win: pld.DistributedTensor[[1, 8], pl.FP32]):',
      '        x = "ab\\',
      'cd"; pl.store(t, [0, 0], win)',
      '',
    ].join('\n');
    expect(moduleErrors(parseModuleIsolated(text, 'k.py')).map((d) => d.message)).toEqual([]);
  });
});
