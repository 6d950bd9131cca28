import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = join(root, 'scripts', 'check-imports.mjs');

/** Runs the structure check (of the repository, or of `tree`). */
function check(tree?: string): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [script, ...(tree ? ['--root', tree] : [])], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A temporary tree with the given files (path → text). */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ptolog-imports-'));
  dirs.push(dir);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

describe('the source tree structure check (npm run lint)', () => {
  it('finds no import cycle and no over-long file in src/ and playground/src/', () => {
    const r = check();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('reports a cycle of type-only imports between two files', () => {
    const r = check(
      tree({
        'src/a/x.ts': "import type { Y } from './y.js';\nexport type X = Y[];\n",
        'src/a/y.ts': "import type { X } from './x.js';\nexport type Y = X | number;\n",
      }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('import cycle (2 files): src/a/x.ts → src/a/y.ts → src/a/x.ts');
  });

  it('reports a cycle between two folders, and between two layers of the rule engine, with an import of each way', () => {
    const r = check(
      tree({
        'src/a/x.ts': "import { y } from '../b/y.js';\nexport const x = () => y;\n",
        'src/b/y.ts': 'export const y = 1;\n',
        'src/b/z.ts': "import { x } from '../a/x.js';\nexport const z = x;\n",
        'src/datalog/exec/e.ts': "import { p } from '../plan/p.js';\nexport const e = p;\n",
        'src/datalog/plan/p.ts': 'export const p = 1;\n',
        'src/datalog/plan/q.ts': "import { e } from '../exec/e.js';\nexport const q = e;\n",
      }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('import cycle between parts: src/a → src/b → src/a');
    expect(r.stderr).toContain('src/b/z.ts imports src/a/x.ts');
    expect(r.stderr).toContain('import cycle between parts: src/datalog/exec → src/datalog/plan → src/datalog/exec');
    expect(r.stderr).not.toContain('import cycle (');
  });

  it('reports a module-level let or var in src/ (file:line), not in src/cli/, a thread entry, a function or a comment', () => {
    const r = check(
      tree({
        'src/a/x.ts': 'const c = 1;\nexport let n = c;\n',
        'src/a/y.ts': 'function f(): number {\n  let k = 1;\n  return k;\n}\n/*\nlet no = 1;\n*/\nvar v = f();\nconst s = `\nlet t`;\n',
        'src/cli/main.ts': 'let argv: string[] = [];\nexport const a = argv;\n',
        'src/lsp/analysis-worker.ts': 'let session = 0;\nexport const w = session;\n',
        'src/lsp/other.ts': 'let session = 0;\nexport const w = session;\n',
      }),
    );
    expect(r.status).toBe(1);
    const says = (at: string, decl: string): string =>
      `${at}: module-level mutable state (${decl}): the library holds none; pass it as an argument or keep it in an object the caller owns\n`;
    expect(r.stderr).toBe(
      says('src/a/x.ts:2', 'export let n = c;') + says('src/a/y.ts:8', 'var v = f();') + says('src/lsp/other.ts:1', 'let session = 0;'),
    );
  });

  it('reports a source file of more than 600 lines', () => {
    const r = check(tree({ 'src/a/long.ts': 'export const a = 1;\n'.repeat(601), 'src/a/ok.ts': 'export const b = 1;\n'.repeat(600) }));
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('src/a/long.ts: 601 lines (at most 600): split it by concern\n');
  });
});
