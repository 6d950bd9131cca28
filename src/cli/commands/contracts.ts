import { Option, type Command } from 'commander';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { CommandContext } from '../main.js';
import { guarded, reportDiagnostics, EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK } from '../io.js';
import { readText, writeAtomic } from '../files.js';
import { parseDefines } from '../../frontend/index.js';
import { PASSES, passByName, type PassSpec } from '../../passes/registry.js';
import { readExtraRules } from '../../passes/extra-rules.js';
import { applyPasses, auditText, passRules, type RunOptions } from '../../passes/pipeline.js';
import { checkRulesRoot } from '../../passes/rules-root.js';
import { DiagnosticError } from '../../report/diagnostic.js';
import { renderFindings, type FindingFormat } from '../../report/render.js';
import { parseModule } from '../../frontend/index.js';
import { analyze } from '../../passes/analyze.js';
import { explainLine } from '../../passes/explain.js';
import { fanoutDot } from '../../passes/graph.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

/** The passes named with --pass (all, in pipeline order, when none is named). */
export function selectPasses(names: readonly string[]): PassSpec[] {
  if (names.length === 0) return [...PASSES];
  const unknown = names.filter((n) => !passByName(n));
  if (unknown.length > 0) {
    throw new DiagnosticError([{
      severity: 'error', code: 'unknown-pass',
      message: `unknown pass ${unknown.join(', ')}; the passes are ${PASSES.map((p) => p.name).join(', ')}.`,
    }]);
  }
  // Keep pipeline order whatever order the flags were given in.
  return PASSES.filter((p) => names.includes(p.name));
}

interface CommonOpts {
  pass: string[];
  rules: string[];
  define: string[];
  rulesRoot?: string;
}

function runOptions(o: CommonOpts, passes: readonly PassSpec[]): RunOptions {
  const root = o.rulesRoot === undefined ? undefined : checkRulesRoot(o.rulesRoot, passes);
  return { defines: parseDefines(o.define), extras: readExtraRules(o.rules, passes), ...(root !== undefined ? { rulesRoot: root } : {}) };
}

function commonOptions(cmd: Command): Command {
  return cmd
    .option('--pass <name>', `pass to run (repeatable): ${PASSES.map((p) => p.name).join(', ')}`, collect, [])
    .option('--rules <dir>', 'extra rule files (.dl) extending the shipped rules (repeatable)', collect, [])
    .option('--rules-root <dir>', 'use this directory (an edited copy of the shipped rules/) in place of rules/')
    .option('-D, --define <NAME=VALUE>', 'define or override a module constant (repeatable)', collect, []);
}

/** `apply` and `audit`: run the contract passes. */
export function registerContractCommands(program: Command, ctx: CommandContext): void {
  commonOptions(
    program
      .command('apply')
      .description('apply the contract passes and print the patched file (only inserted/edited text changes)')
      .argument('<file>', 'a Python module holding @pl.program classes'),
  )
    .addOption(new Option('--write', 'replace the file atomically instead of printing it').conflicts('diff'))
    .option('--diff', 'print a unified diff instead of the file')
    .action(async (file: string, o: CommonOpts & { write?: boolean; diff?: boolean }) => {
      ctx.setExit(
        await guarded(ctx.io, () => {
          const passes = selectPasses(o.pass);
          const text = readText(file);
          const r = applyPasses(text, file, passes, runOptions(o, passes));
          reportDiagnostics(ctx.io, r.warnings);
          if (o.write) {
            if (r.text !== text) writeAtomic(file, r.text);
          } else if (o.diff) {
            if (r.text !== text) ctx.io.stdout(createTwoFilesPatch(`a/${file}`, `b/${file}`, text, r.text, '', '', { context: 3, headerOptions: FILE_HEADERS_ONLY }));
          } else {
            ctx.io.stdout(r.text);
          }
          return EXIT_OK;
        }),
      );
    });

  commonOptions(
    program
      .command('audit')
      .description('report where the contracts are not met (exit 1 with findings)')
      .argument('<files...>', 'Python modules holding @pl.program classes'),
  )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'sarif']).default('text'))
    .action(async (files: string[], o: CommonOpts & { format: FindingFormat }) => {
      ctx.setExit(
        await guarded(ctx.io, () => {
          const passes = selectPasses(o.pass);
          const opts = runOptions(o, passes);
          const all = files.flatMap((f) => auditText(readText(f), f, passes, opts));
          const out = renderFindings(all, o.format);
          if (o.format === 'text') {
            if (all.length > 0) ctx.io.stdout(out + '\n');
          } else ctx.io.stdout(out + '\n');
          return all.length > 0 ? EXIT_FINDINGS : EXIT_OK;
        }),
      );
    });

  commonOptions(
    program
      .command('explain')
      .description('show, for a line, what the rules derived there and the proof (or why nothing was derived)')
      .argument('<file:line>', 'e.g. kernel.py:27'),
  ).action(async (where: string, o: CommonOpts) => {
    ctx.setExit(
      await guarded(ctx.io, () => {
        const m = /^(.*):(\d+)$/.exec(where);
        if (!m) {
          throw new DiagnosticError([{ severity: 'error', code: 'bad-argument', message: `expected FILE:LINE, got "${where}".` }]);
        }
        const [, file, lineText] = m;
        const passes = selectPasses(o.pass);
        const opts = runOptions(o, passes);
        const module = parseModule(readText(file!), file!, { defines: opts.defines });
        const line = Number(lineText);
        if (line < 1 || line > module.source.lineCount) {
          throw new DiagnosticError([{ severity: 'error', code: 'bad-argument', path: file!, message: `${file} has ${module.source.lineCount} lines; line ${line} is outside it.` }]);
        }
        for (const pass of passes) {
          const rules = passRules(pass, opts);
          const a = analyze(module, pass.audit, rules.extra, rules.analyze);
          ctx.io.stdout(`== ${pass.name}\n${explainLine(a, line)}\n`);
        }
        return EXIT_OK;
      }),
    );
  });

  program
    .command('graph')
    .description('write the task-dependency fan-out of each manual scope as Graphviz DOT')
    .argument('<file>', 'a Python module holding @pl.program classes')
    .option('--after', 'show the dependencies after expand-manual-phase-fence (through its barriers)')
    .option('--rules <dir>', 'extra rule files (.dl) extending the shipped rules (repeatable)', collect, [])
    .option('-D, --define <NAME=VALUE>', 'define or override a module constant (repeatable)', collect, [])
    .action(async (file: string, o: { after?: boolean; rules: string[]; define: string[] }) => {
      ctx.setExit(
        await guarded(ctx.io, () => {
          const pass = passByName('expand-manual-phase-fence')!;
          const opts = runOptions({ pass: [], ...o }, [pass]);
          const module = parseModule(readText(file), file, { defines: opts.defines });
          const rules = passRules(pass, opts);
          const a = analyze(module, pass.audit, rules.extra, rules.analyze);
          ctx.io.stdout(fanoutDot(a, o.after === true));
          return EXIT_OK;
        }),
      );
    });
  void EXIT_FAILURE;
}
