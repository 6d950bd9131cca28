import { existsSync, readdirSync, type Stats, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { Command } from 'commander';
import { catalogForRules } from '../../passes/catalog.js';
import { readExtraRules } from '../../passes/extra-rules.js';
import { PASSES, type PassSpec, rulesDir } from '../../passes/registry.js';
import { checkRulesRoot } from '../../passes/rules-root.js';
import { type Diagnostic, DiagnosticError, errorAt } from '../../report/diagnostic.js';
import { SourceText } from '../../report/source.js';
import { checkAnnotatedCodes, hasAnnotations, type RuleTestInput, readAnnotations, runRuleTest } from '../../ruletest/index.js';
import { Runner } from '../../runner/runner.js';
import type { CommandContext } from '../context.js';
import { readText, unreadableReason } from '../files.js';
import { EXIT_FINDINGS, EXIT_OK, guarded, reportDiagnostics, ruleSessionOf } from '../io.js';
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
      else if (name.endsWith('.py') && !name.endsWith('.fixed.py') && (existsSync(fixedPath(p)) || hasAnnotations(readText(p))))
        out.push(p);
    }
  };
  for (const p of paths) {
    let st: Stats;
    try {
      st = statSync(p);
    } catch (e) {
      throw new DiagnosticError([
        { severity: 'error', code: 'unreadable-file', path: p, message: `cannot read ${p}: ${unreadableReason(e, p)}.` },
      ]);
    }
    if (st.isDirectory()) walk(p);
    else if (!st.isFile()) {
      // A device or a pipe (`ptolog test /dev/null`) is no rule test: never a run that counts checks on it.
      throw new DiagnosticError([
        {
          severity: 'error',
          code: 'bad-argument',
          path: p,
          message: `${p} is not a regular file; a rule test is a .py kernel with # expect: / # ok: annotations or a NAME.fixed.py beside it.`,
        },
      ]);
    } else if (p.endsWith('.fixed.py')) {
      throw new DiagnosticError([
        {
          severity: 'error',
          code: 'bad-argument',
          path: p,
          message: `${p} is the expected output of a test; give the test itself (${p.replace(/\.fixed\.py$/, '.py')}).`,
        },
      ]);
    } else out.push(p);
  }
  if (out.length === 0) {
    throw new DiagnosticError([
      {
        severity: 'error',
        code: 'no-tests',
        message: `no rule tests under ${paths.join(', ')}: a test is a .py kernel with # expect: / # ok: annotations, or with a NAME.fixed.py beside it.`,
      },
    ]);
  }
  return out;
}

/**
 * The passes a test runs (`--pass`, else its `# pass:`), or null after pushing to `errors` a
 * `bad-annotation` at its `# pass:` line naming no contract (with a word about `# rules:` when
 * the test has none: a user contract's pass needs its folder).
 */
function testPasses(t: RuleTestInput, flags: readonly string[], rules: readonly string[], errors: Diagnostic[]): PassSpec[] | null {
  const a = t.annotations;
  try {
    return selectPasses(flags.length > 0 ? flags : a.passes, rules);
  } catch (e) {
    if (!(e instanceof DiagnosticError) || flags.length > 0 || a.passAt === undefined || e.diagnostics[0]?.code !== 'unknown-pass') throw e;
    const end = a.source.lineStart(a.source.lineOf(a.passAt) + 1);
    const hint =
      a.rulesAt === undefined
        ? " This test has no `# rules:` line: a user contract's pass is known once `# rules: DIR` names its folder."
        : '';
    errors.push(
      errorAt(a.source, a.passAt, Math.max(a.passAt + 1, end - 1), 'bad-annotation', `${e.diagnostics[0]!.message}${hint}`, {
        fix: a.rulesAt === undefined ? 'add `# rules: PATH` (the contract folder, relative to this file).' : 'correct the pass name.',
      }),
    );
    return null;
  }
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
          // Each test's rules, passes and declared codes: an annotation naming what the run does not know is an error there.
          const setups = tests.map((t) => {
            const rules = [...o.rules, ...t.annotations.rules.map((r) => (isAbsolute(r) ? r : join(dirname(t.path), r)))];
            const passes = testPasses(t, o.pass, rules, errors);
            errors.push(...checkAnnotatedCodes(t.annotations, new Set(catalogForRules(o.rulesRoot ?? rulesDir(), rules).keys())));
            return { t, rules, passes };
          });
          reportDiagnostics(
            ctx.io,
            errors.filter((d) => d.severity !== 'error'),
          );
          const fatal = errors.filter((d) => d.severity === 'error');
          if (fatal.length > 0) throw new DiagnosticError(fatal);
          let passed = 0;
          let failed = 0;
          const session = ruleSessionOf(ctx.io);
          for (const { t, rules, passes } of setups) {
            if (passes === null) continue;
            const runner = new Runner({
              passes,
              extras: readExtraRules(rules, passes),
              ...(o.rulesRoot !== undefined ? { rulesRoot: checkRulesRoot(o.rulesRoot, passes) } : {}),
              session,
            });
            const r = runRuleTest(t, runner);
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
