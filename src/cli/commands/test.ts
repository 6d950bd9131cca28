import { existsSync, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { Command } from 'commander';
import type { CommandContext } from '../main.js';
import { guarded, ruleSessionOf, EXIT_FINDINGS, EXIT_OK } from '../io.js';
import { readText, unreadableReason } from '../files.js';
import { PASSES } from '../../passes/registry.js';
import { readExtraRules } from '../../passes/extra-rules.js';
import { checkRulesRoot } from '../../passes/rules-root.js';
import { DiagnosticError, type Diagnostic } from '../../report/diagnostic.js';
import { SourceText } from '../../report/source.js';
import { readAnnotations, hasAnnotations, runRuleTest, type RuleTestInput } from '../../ruletest/index.js';
import { selectPasses } from '../passes.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];
const fixedPath = (p: string): string => p.replace(/\.py$/, '.fixed.py');

/** The test files under `paths`: files as given; in directories, `.py` files with annotations or a `.fixed.py` beside them. */
function testFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.py') && !name.endsWith('.fixed.py') && (existsSync(fixedPath(p)) || hasAnnotations(readText(p)))) out.push(p);
    }
  };
  for (const p of paths) {
    let st: Stats;
    try {
      st = statSync(p);
    } catch (e) {
      throw new DiagnosticError([{ severity: 'error', code: 'unreadable-file', path: p, message: `cannot read ${p}: ${unreadableReason(e, p)}.` }]);
    }
    if (st.isDirectory()) walk(p);
    else if (!st.isFile()) {
      // A device or a pipe (`ptolog test /dev/null`) is no rule test: never a run that counts checks on it.
      throw new DiagnosticError([{ severity: 'error', code: 'bad-argument', path: p, message: `${p} is not a regular file; a rule test is a .py kernel with # expect: / # ok: annotations or a NAME.fixed.py beside it.` }]);
    }
    else if (p.endsWith('.fixed.py')) {
      throw new DiagnosticError([{ severity: 'error', code: 'bad-argument', path: p, message: `${p} is the expected output of a test; give the test itself (${p.replace(/\.fixed\.py$/, '.py')}).` }]);
    } else out.push(p);
  }
  if (out.length === 0) {
    throw new DiagnosticError([{
      severity: 'error', code: 'no-tests',
      message: `no rule tests under ${paths.join(', ')}: a test is a .py kernel with # expect: / # ok: annotations, or with a NAME.fixed.py beside it.`,
    }]);
  }
  return out;
}

interface TestOpts {
  pass: string[];
  rules: string[];
  rulesRoot?: string;
}

/** `test`: runs annotated rule tests. */
export function registerTestCommand(program: Command, ctx: CommandContext): void {
  program
    .command('test')
    .description('run annotated rule tests: # expect: CODE / # ok: CODE on or above a line, NAME.fixed.py for apply')
    .argument('[paths...]', 'test files or directories holding them', ['.'])
    .option('--pass <name>', `pass to run (repeatable; overrides # pass:): ${PASSES.map((p) => p.name).join(', ')}`, collect, [])
    .option('--rules <dir>', 'extra rule files (.dl) extending the shipped rules (repeatable)', collect, [])
    .option('--rules-root <dir>', 'use this directory (an edited copy of the shipped rules/) in place of rules/')
    .action(async (paths: string[], o: TestOpts) => {
      ctx.setExit(
        await guarded(ctx.io, () => {
          const files = testFiles(paths);
          const errors: Diagnostic[] = [];
          const tests: RuleTestInput[] = files.map((path) => {
            const text = readText(path);
            const annotations = readAnnotations(new SourceText(path, text));
            errors.push(...annotations.errors);
            const fp = fixedPath(path);
            return { path, text, annotations, ...(existsSync(fp) ? { fixed: { path: fp, text: readText(fp) } } : {}) };
          });
          if (errors.length > 0) throw new DiagnosticError(errors);
          let passed = 0;
          let failed = 0;
          const session = ruleSessionOf(ctx.io);
          for (const t of tests) {
            const rules = [...o.rules, ...t.annotations.rules.map((r) => (isAbsolute(r) ? r : join(dirname(t.path), r)))];
            const passes = selectPasses(o.pass.length > 0 ? o.pass : t.annotations.passes, rules);
            const run = {
              extras: readExtraRules(rules, passes),
              ...(o.rulesRoot !== undefined ? { rulesRoot: checkRulesRoot(o.rulesRoot, passes) } : {}),
              session,
            };
            const r = runRuleTest(t, passes, run);
            passed += r.passed;
            failed += r.failures.length;
            for (const f of r.failures) ctx.io.stdout(`${f}\n`);
          }
          ctx.io.stdout(`${passed} passed, ${failed} failed\n`);
          return failed > 0 ? EXIT_FINDINGS : EXIT_OK;
        }),
      );
    });
}
