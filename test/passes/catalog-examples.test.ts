// The catalog's examples are run, as Biome runs its documentation's (issue 30 item 9): each
// `example` reports its code, with the severity the catalog gives it at that stage, and each
// `ok` example does not. A Python example is audited, a rule file checked, unless its first
// line says how (`# ptolog audit --as-written`, `// ptolog run --max-tuples 1000 -D -`, `{file}`
// standing for the example); an example that is a `ptolog ...` command line is shown, not run.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CatalogEntry, loadCatalog } from '../../src/passes/catalog.js';
import { PASSES, ruleFilesUnder, rulesDir } from '../../src/passes/registry.js';
import { run } from '../cli/helpers.js';

/** A Python kernel, a rule file, or text that is only shown (a command line, a TOML table). */
type Kind = 'python' | 'rules' | 'shown';

function kindOf(text: string): Kind {
  if (/^(import|from) \S/m.test(text)) return 'python';
  if (/^(\.decl |#include |\/\/ ptolog )|:-|\)\.\s*(\/\/.*)?$/m.test(text) && !/^ptolog /.test(text)) return 'rules';
  return 'shown';
}

/** The severities `code` is reported with when the example `text` is run (empty: not reported). */
async function reported(
  e: CatalogEntry,
  text: string,
  dir: string,
  name: string,
): Promise<{ severities: string[]; stage: string; output: string }> {
  const code = e.code;
  const kind = kindOf(text);
  const directive = /^(?:#|\/\/) ptolog (.*)$/.exec(text.split('\n')[0]!);
  const body = directive ? text.split('\n').slice(1).join('\n') : text;
  const file = join(dir, `${name}${kind === 'python' ? '.py' : '.dl'}`);
  writeFileSync(file, `${body}\n`);
  const args = directive ? directive[1]!.trim().split(/\s+/) : [kind === 'python' ? 'audit' : 'check-rules'];
  // A shipped contract's example is audited with that contract only (the others have nothing to say).
  if (args[0] === 'audit' && PASSES.some((p) => p.name === e.contract) && !args.includes('--pass')) args.push('--pass', e.contract);
  const withFile = args.includes('{file}') ? args.map((a) => (a === '{file}' ? file : a)) : [...args, file];
  const stage = args.includes('--as-written') ? 'as-written' : 'pipeline';
  if (withFile[0] === 'audit') {
    const r = await run([...withFile.slice(0, 1), '--format', 'json', ...withFile.slice(1)]);
    if (r.out.trim().startsWith('{')) {
      const ds = (JSON.parse(r.out) as { diagnostics: { code: string; severity: string }[] }).diagnostics;
      return { severities: ds.filter((d) => d.code === code).map((d) => d.severity), stage, output: r.out + r.err };
    }
    return { severities: [], stage, output: r.out + r.err };
  }
  const r = await run(withFile);
  const text2 = r.out + r.err;
  const esc = code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const sevs = [...text2.matchAll(new RegExp(`^\\S[^\\n]*?: (error|warning|note)\\[${esc}\\]`, 'gm'))].map((m) => m[1]!);
  return { severities: sevs, stage, output: text2 };
}

const catalog = loadCatalog(rulesDir(), ruleFilesUnder(rulesDir()));
const entries = [...catalog.values()];
const runnable = entries.filter((e) => e.example !== '' && kindOf(e.example) !== 'shown');

/**
 * Codes whose example is only shown: a command line (the command line's own failures: a missing
 * file, a bad option value, a binary file) or a TOML table; each is covered by its own tests.
 */
const COMMAND_EXAMPLES = [
  'bad-argument',
  'bad-fact',
  'bad-tuple',
  'catalog',
  'config',
  'evaluation-timeout',
  'file-not-found',
  'internal-error',
  'manifest',
  'missing-facts',
  'no-tests',
  'not-python',
  'patch-conflict',
  'unknown-code',
  'unknown-pass',
  'unreadable-file',
  'unwritable-output',
  'usage',
  'write-failed',
  'bad-annotation',
  'annotation-without-colon',
  'nesting-too-deep',
  'file-too-large',
  'no-files',
  'unknown-config-code',
];

describe('catalog examples', () => {
  it('every example is run, except the command-line codes', () => {
    const notRun = entries
      .filter((e) => !runnable.includes(e))
      .map((e) => e.code)
      .sort();
    expect(notRun).toEqual([...COMMAND_EXAMPLES].sort());
    // Every shipped contract's code has an example and an ok example that are run.
    for (const e of entries.filter((x) => x.contract !== 'ptolog')) {
      expect(runnable.includes(e), e.code).toBe(true);
      expect(e.ok, e.code).not.toBe('');
    }
  });

  it.each(runnable.map((e) => [e.code, e] as [string, CatalogEntry]))(
    '%s: the example reports it, the ok example does not',
    async (code, e) => {
      const dir = mkdtempSync(join(tmpdir(), 'ptolog-example-'));
      const got = await reported(e, e.example, dir, 'example');
      const want = got.stage === 'as-written' ? (e.stages['as-written'] ?? e.severity) : e.severity;
      expect(got.severities.length, `${code} not reported by its example:\n${got.output}`).toBeGreaterThan(0);
      expect(new Set(got.severities), code).toEqual(new Set([want]));
      if (e.ok !== '') {
        const ok = await reported(e, e.ok, dir, 'ok');
        expect(ok.severities, `${code} reported by its ok example:\n${ok.output}`).toEqual([]);
      }
    },
  );
});
