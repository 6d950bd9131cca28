import { describe, expect, it } from 'vitest';
import { applyConfig, applySuppressions, type Diagnostic, type DiagnosticError, loadConfig, SourceText } from '../../src/index.js';

/** An in-memory file tree for loadConfig's reader. */
const reader =
  (files: Record<string, string>) =>
  (p: string): string | undefined =>
    files[p];

describe('loadConfig', () => {
  it('finds the nearest configuration upwards and skips pyproject.toml without [tool.ptolog]', () => {
    const read = reader({
      '/r/pyproject.toml': '[tool.ptolog]\npasses = ["cache-policy"]\n',
      '/r/a/pyproject.toml': '[project]\nname = "a"\n',
      '/r/a/b/ptolog.toml': 'fail-on = "error"\n',
    });
    expect(loadConfig('/r/a', read)?.path).toBe('/r/pyproject.toml');
    expect(loadConfig('/r/a/b/c', read)?.path).toBe('/r/a/b/ptolog.toml');
    expect(loadConfig('/elsewhere', read)).toBeUndefined();
  });

  it('resolves paths against the configuration directory', () => {
    const c = loadConfig('/r', reader({ '/r/ptolog.toml': 'rules = ["my", "/abs"]\n[defines]\nN = 8\nS = [1, 2]\n' }))!;
    expect(c.rules).toEqual(['/r/my', '/abs']);
    expect(c.defines).toEqual(['N=8', 'S=[1,2]']);
  });

  it('locates an unknown key in a [tool.ptolog.x] sub-table header too', () => {
    const text = '[project]\nname = "x"\n\n[tool.ptolog]\nrules = []\n\n[tool.ptolog.severty]\nx = "off"\n';
    try {
      loadConfig('/r', reader({ '/r/pyproject.toml': text }));
      expect.unreachable();
    } catch (e) {
      const d = (e as DiagnosticError).diagnostics[0]!;
      expect(d.message).toBe("unknown key 'severty' — did you mean 'severity'?");
      expect(d.location!.source.position(d.location!.start)).toEqual({ line: 7, col: 1 });
    }
  });
});

describe('applyConfig', () => {
  it('drops off codes and per-file ignores, re-grades the rest', () => {
    const c = loadConfig(
      '/r',
      reader({ '/r/ptolog.toml': '[severity]\na = "off"\nb = "error"\n[per-file-ignores]\n"tests/**" = ["c"]\n' }),
    )!;
    const ds: Diagnostic[] = ['a', 'b', 'c'].map((code) => ({ severity: 'warning', code, message: code }));
    expect(applyConfig(ds, c, '/r/src/k.py').map((d) => `${d.code}:${d.severity}`)).toEqual(['b:error', 'c:warning']);
    expect(applyConfig(ds, c, '/r/tests/x/k.py').map((d) => d.code)).toEqual(['b']);
  });
});

describe('applySuppressions', () => {
  const src = new SourceText('k.py', 'a = 1  # ptolog: ignore[x]\n# ptolog: ignore[y, zz]\nb = 2\ns = "# ptolog: ignore[x]"\n');
  const at = (line: number, code: string): Diagnostic => ({
    severity: 'warning',
    code,
    message: code,
    location: { source: src, start: src.lineStart(line), end: src.lineStart(line) + 1 },
  });

  it('drops covered codes on the line and below a comment line, keeps the rest', () => {
    const r = applySuppressions([at(1, 'x'), at(1, 'y'), at(3, 'y'), at(4, 'x')], src, {
      knownCodes: new Set(['x', 'y']),
      reportUnused: true,
    });
    expect(r.suppressed.map((d) => d.code)).toEqual(['x', 'y']);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['y', 'x', 'unknown-suppression-code']);
  });

  it('reads the known codes (a function) only for a file whose comments name codes, once', () => {
    let calls = 0;
    const known = (): Set<string> => {
      calls += 1;
      return new Set(['x', 'y']);
    };
    applySuppressions([at(1, 'x')], new SourceText('q.py', 'a = 1\n# ptolog: ignore\n'), { knownCodes: known });
    expect(calls).toBe(0);
    const r = applySuppressions([at(1, 'x')], src, { knownCodes: known });
    expect(calls).toBe(1);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unknown-suppression-code']);
  });

  it('reports unused suppressions only when asked', () => {
    expect(applySuppressions([], src, { knownCodes: new Set(['x', 'y', 'zz']) }).diagnostics).toEqual([]);
    const r = applySuppressions([], src, { knownCodes: new Set(['x', 'y', 'zz']), reportUnused: true });
    expect(r.diagnostics.map((d) => [d.code, src.lineOf(d.location!.start)])).toEqual([
      ['unused-suppression', 1],
      ['unused-suppression', 2],
      ['unused-suppression', 2],
    ]);
  });
});

describe('stage', () => {
  it('reads `stage` and reports a bad value at its line', () => {
    expect(loadConfig('/r', reader({ '/r/ptolog.toml': 'stage = "as-written"\n' }))?.stage).toBe('as-written');
    expect(loadConfig('/r', reader({ '/r/ptolog.toml': 'fail-on = "error"\n' }))?.stage).toBeUndefined();
    try {
      loadConfig('/r', reader({ '/r/ptolog.toml': 'fail-on = "error"\nstage = "written"\n' }));
      expect.unreachable();
    } catch (e) {
      const d = (e as DiagnosticError).diagnostics[0]!;
      expect(d.message).toBe('\'stage\' must be "pipeline" or "as-written"');
      expect(d.location!.source.position(d.location!.start)).toEqual({ line: 2, col: 1 });
    }
  });
});
