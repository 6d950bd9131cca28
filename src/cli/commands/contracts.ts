import { basename, dirname, isAbsolute } from 'node:path';
import type { Command } from 'commander';
import { moduleErrors, parseDefines, parseModuleIsolated } from '../../frontend/index.js';
import { analyze } from '../../passes/analyze.js';
import { explainLine, type RulePathShown, rulePathsUnder } from '../../passes/explain.js';
import { readExtraRules } from '../../passes/extra-rules.js';
import { fanoutDot } from '../../passes/graph.js';
import { passRules, type RunOptions } from '../../passes/pipeline.js';
import { PASSES, type PassSpec, rulesDir } from '../../passes/registry.js';
import type { RuleSession } from '../../passes/rule-session.js';
import { checkRulesRoot } from '../../passes/rules-root.js';
import { DiagnosticError } from '../../report/diagnostic.js';
import { fileModuleReader } from '../../runner/module-reader.js';
import type { CommandContext } from '../context.js';
import { defineTypos } from '../define-typos.js';
import { readText } from '../files.js';
import { EXIT_FAILURE, EXIT_OK, guarded, reportDiagnostics, ruleSessionOf } from '../io.js';
import { selectPasses } from '../passes.js';
import { Settings } from '../settings.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

interface CommonOpts {
  pass: string[];
  rules: string[];
  define: string[];
  rulesRoot?: string;
  /** explain: `--as-written` (judge the text as it stands, as `audit --as-written`). */
  asWritten?: boolean;
}

function runOptions(o: CommonOpts, passes: readonly PassSpec[], session: RuleSession): RunOptions {
  const root = o.rulesRoot === undefined ? undefined : checkRulesRoot(o.rulesRoot, passes);
  return {
    defines: parseDefines(o.define),
    extras: readExtraRules(o.rules, passes),
    ...(root !== undefined ? { rulesRoot: root } : {}),
    ...(o.asWritten ? { stage: 'as-written' as const } : {}),
    session,
  };
}

function commonOptions(cmd: Command): Command {
  return cmd
    .option('--pass <name>', `pass to run (repeatable): ${PASSES.map((p) => p.name).join(', ')}`, collect, [])
    .option('--rules <dir>', 'extra rule files (.dl) extending the shipped rules (repeatable)', collect, [])
    .option('--rules-root <dir>', 'use this directory (an edited copy of the shipped rules/) in place of rules/')
    .option('-D, --define <NAME=VALUE>', 'define or override a module constant (repeatable)', collect, []);
}

/** The contract (among `passes`) whose manifest declares `view`; a located-free error when none does. */
function viewPass(view: string, passes: readonly PassSpec[], named: boolean): PassSpec {
  const pass = passes.find((p) => p.views.includes(view));
  if (pass) return pass;
  throw new DiagnosticError([
    {
      severity: 'error',
      code: 'unknown-pass',
      message: `${named ? `the pass ${passes.map((p) => p.name).join(', ')} declares` : 'no contract declares'} no ${view} view (a manifest's views = ["${view}"]).`,
    },
  ]);
}

/**
 * Rule paths in proofs relative to the rule root (`<ptolog/lib.dl>`, also for --rules-root) or
 * to a user contract's folder or --rules directory (`my_contract/rules.dl`), not to the working directory.
 */
function proofPaths(o: CommonOpts, passes: readonly PassSpec[]): RulePathShown {
  const folders = [...new Set([...passes.filter((p) => isAbsolute(p.audit)).map((p) => dirname(p.audit)), ...o.rules])];
  return rulePathsUnder(process.cwd(), [
    ...folders.map((dir) => ({ dir, label: (rel: string) => `${basename(dir)}/${rel}` })),
    { dir: o.rulesRoot ?? rulesDir(), label: (rel: string) => `<ptolog/${rel}>` },
  ]);
}

/** `explain` and `graph`: one file, one pass's view. */
export function registerContractCommands(program: Command, ctx: CommandContext): void {
  commonOptions(
    program
      .command('explain')
      .description('show, for a line, what the rules derived there and the proof (or why nothing was derived)')
      .argument('<file:line>', 'e.g. kernel.py:27'),
  )
    .option('--as-written', 'explain the findings of `audit --as-written` (the text as it stands) instead of those of the default stage')
    .action(async (where: string, o: CommonOpts) => {
      ctx.setExit(
        await guarded(ctx.io, () => {
          // FILE:LINE, or FILE:LINE:COL as audit prints it (the column is accepted, the line explained).
          const m = /^(.*?):(\d+)(?::(\d+))?$/.exec(where);
          if (!m) {
            throw new DiagnosticError([
              { severity: 'error', code: 'bad-argument', message: `expected FILE:LINE or FILE:LINE:COL, got "${where}".` },
            ]);
          }
          const [, file, lineText] = m;
          const passes = selectPasses(o.pass, o.rules);
          const opts = runOptions(o, passes, ruleSessionOf(ctx.io));
          // (Imported helpers are followed as audit follows them: a call of one is explained as inlined.)
          const roots = new Settings({ pass: o.pass, rules: o.rules, define: o.define, exclude: [] }, process.cwd()).task(
            'audit',
            file!,
          ).importRoots;
          const module = parseModuleIsolated(readText(file!), file!, { defines: opts.defines, modules: fileModuleReader(roots ?? []) });
          const readErrors = moduleErrors(module);
          reportDiagnostics(ctx.io, [...defineTypos(module, opts.defines), ...readErrors]);
          const line = Number(lineText);
          const lineCount = (module.parts?.[0]?.source ?? module.source).lineCount;
          if (line < 1 || line > lineCount) {
            throw new DiagnosticError([
              {
                severity: 'error',
                code: 'bad-argument',
                path: file!,
                message: `${file} has ${lineCount} lines; line ${line} is outside it.`,
              },
            ]);
          }
          const show = proofPaths(o, passes);
          for (const pass of passes) {
            const rules = passRules(pass, opts);
            const a = analyze(module, pass.audit, rules.extra, rules.analyze);
            ctx.io.stdout(`== ${pass.name}\n${explainLine(a, line, pass, show)}\n`);
          }
          return readErrors.length > 0 ? EXIT_FAILURE : EXIT_OK;
        }),
      );
    });

  program
    .command('graph')
    .description('write the task-dependency fan-out of each manual scope as Graphviz DOT')
    .argument('<file>', 'a Python module holding @pl.program classes')
    .option('--after', "show the dependencies after the contract's edits (through its barriers)")
    .option(
      '--pass <name>',
      'the contract whose graph view to draw (default: the first whose manifest declares views = ["graph"])',
      collect,
      [],
    )
    .option('--rules <dir>', 'extra rule files (.dl) extending the shipped rules (repeatable)', collect, [])
    .option('-D, --define <NAME=VALUE>', 'define or override a module constant (repeatable)', collect, [])
    .action(async (file: string, o: { after?: boolean; pass: string[]; rules: string[]; define: string[] }) => {
      ctx.setExit(
        await guarded(ctx.io, () => {
          const pass = viewPass('graph', selectPasses(o.pass, o.rules), o.pass.length > 0);
          const opts = runOptions(o, [pass], ruleSessionOf(ctx.io));
          const module = parseModuleIsolated(readText(file), file, { defines: opts.defines });
          const readErrors = moduleErrors(module);
          reportDiagnostics(ctx.io, [...defineTypos(module, opts.defines), ...readErrors]);
          const rules = passRules(pass, opts);
          const a = analyze(module, pass.audit, rules.extra, rules.analyze);
          ctx.io.stdout(fanoutDot(a, o.after === true, pass.name));
          return readErrors.length > 0 ? EXIT_FAILURE : EXIT_OK;
        }),
      );
    });
}
