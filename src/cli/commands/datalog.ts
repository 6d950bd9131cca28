import { relative } from 'node:path';
import type { Command } from 'commander';
import {
  type EvalResult,
  evaluate,
  formatOutputs,
  formatProof,
  formatTuple,
  formatWhyNot,
  loadProgram,
  parseTupleText,
  type RuleProgram,
  readFactsDir,
  relationsRead,
  writeOutputs,
} from '../../datalog/index.js';
import { loadRules } from '../../passes/analyze.js';
import { readExtraRules } from '../../passes/extra-rules.js';
import { PASSES, rulesDir } from '../../passes/registry.js';
import { DiagnosticError } from '../../report/diagnostic.js';
import { checkPlan, extensionSummary } from '../check-rules.js';
import type { CommandContext } from '../context.js';
import { ensureOutputDir, writingOutputs } from '../files.js';
import { EXIT_FINDINGS, EXIT_OK, guarded, reportDiagnostics, ruleSessionOf } from '../io.js';
import { evaluationBounds, type LimitOpts, limitOptions } from '../limits.js';

/** The shipped rules directory as the user reads it in messages: relative to the working directory. */
function shippedRules(): string {
  return relative(process.cwd(), rulesDir()) || '.';
}

interface FactOpts extends LimitOpts {
  factDir: string;
  includePath: string[];
}

function collect(v: string, acc: string[]): string[] {
  return [...acc, v];
}

/** Loads rule files as one program: `-I` dirs, then the shipped rules, for includes; `<ptolog/...>` is the shipped rules. */
function loadWithIncludes(files: string[], includePath: readonly string[]): ReturnType<typeof loadProgram> {
  return loadProgram(files, undefined, [...includePath, shippedRules()], { ptolog: shippedRules() });
}

/**
 * Loads the rule files (warnings to stderr), reads the facts directory and evaluates (every
 * relation when `prune` is false, so any tuple can be explained).
 */
function loadAndRun(ctx: CommandContext, files: string[], o: FactOpts, prune = true): { program: RuleProgram; result: EvalResult } {
  const factDir = o.factDir;
  const { program, warnings } = loadWithIncludes(files, o.includePath);
  reportDiagnostics(ctx.io, warnings);
  const db = program.newDatabase();
  // Only the inputs evaluation reads (all of them when every relation is evaluated).
  readFactsDir(db, factDir, prune ? relationsRead(program) : undefined);
  return { program, result: evaluate(program, db, { prune, ...evaluationBounds(o) }) };
}

/** Splits `RULES... TUPLE` positional arguments. */
function rulesAndTuple(args: string[]): { files: string[]; tuple: string } {
  if (args.length < 2) {
    throw new DiagnosticError([
      {
        severity: 'error',
        code: 'usage',
        message: "expected one or more rule files followed by a tuple such as 'path(1, 5)'",
        fix: "quote the tuple in the shell: ptolog explain-tuple rules.dl -F facts 'path(1,5)'",
      },
    ]);
  }
  return { files: args.slice(0, -1), tuple: args[args.length - 1]! };
}

/** Prints a proof (exit 0) or, when the tuple is absent, why no rule derives it (exit 1). */
function explainOrWhyNot(ctx: CommandContext, files: string[], tupleText: string, o: FactOpts, whyNot: boolean): number {
  const { program, result } = loadAndRun(ctx, files, o, false);
  const { rel, values } = parseTupleText(program, tupleText);
  const info = program.relation(rel)!;
  const present = result.contains(rel, values);
  if (present && !whyNot) {
    ctx.io.stdout(`${formatProof(result.explain(rel, values)!)}\n`);
    return EXIT_OK;
  }
  if (present) {
    ctx.io.stdout(`${formatTuple(rel, values)} is derived; its proof:\n${formatProof(result.explain(rel, values)!)}\n`);
    return EXIT_FINDINGS;
  }
  ctx.io.stdout(`${formatWhyNot(rel, values, result.whyNot(rel, values), info.input)}\n`);
  return whyNot ? EXIT_OK : EXIT_FINDINGS;
}

/** `run`, `check-rules`, `explain-tuple` and `why-not`: the Datalog engine on its own. */
export function registerDatalogCommands(program: Command, ctx: CommandContext): void {
  limitOptions(program.command('run'))
    .description('evaluate Datalog rule files like `souffle -F FACTDIR -D OUTDIR`')
    .argument('<rules...>', 'rule files (.dl), checked and evaluated as one program')
    .option(
      '-I, --include-path <dir>',
      'directory searched for `#include`s (repeatable; then the shipped rules; `<ptolog/...>` is the shipped rules)',
      collect,
      [],
    )
    .option('-F, --fact-dir <dir>', 'directory holding <relation>.facts (tab-separated) for each .input relation', '.')
    .option('-D, --output-dir <dir>', 'directory to write <relation>.csv for each .output relation; `-` prints them to stdout', '.')
    .action(async (files: string[], o: FactOpts & { outputDir: string }) => {
      ctx.setExit(
        await guarded(ctx.io, () => {
          const { program: p, result } = loadAndRun(ctx, files, o);
          if (o.outputDir === '-') ctx.io.stdout(formatOutputs(result));
          else {
            ensureOutputDir(o.outputDir, '-D');
            writingOutputs(o.outputDir, '-D', () => writeOutputs(result, o.outputDir));
          }
          for (const r of p.relations) if (r.printsize) ctx.io.stdout(`${r.name}\t${result.size(r.name)}\n`);
          return EXIT_OK;
        }),
      );
    });

  program
    .command('check-rules')
    .description('run only the static checks of Datalog rule files (errors exit 2, warnings are printed)')
    .argument('<files...>', 'rule files (.dl), checked as one program')
    .option(
      '-I, --include-path <dir>',
      'directory searched for `#include`s (repeatable; then the shipped rules; `<ptolog/...>` is the shipped rules)',
      collect,
      [],
    )
    .action(async (files: string[], o: { includePath: string[] }) => {
      ctx.setExit(
        await guarded(ctx.io, () => {
          // A file written as an extension (`wait_op("x").`, or including a contract's rules) is
          // checked with each contract it extends, as --rules loads it.
          const session = ruleSessionOf(ctx.io);
          const plan = checkPlan(files, readExtraRules(files, PASSES), PASSES, o.includePath, session);
          if (plan.kind === 'extension') {
            const seen = new Set<string>();
            const programs: RuleProgram[] = [];
            for (const pass of plan.contracts) {
              const { program: p, warnings } = loadRules(pass.audit, files, undefined, o.includePath, session);
              programs.push(p);
              // A warning about the files is the same from every contract: shown once.
              const fresh = warnings.filter((w) => {
                const key = JSON.stringify([w.code, w.location?.source.path ?? w.path, w.location?.start, w.message]);
                return !seen.has(key) && seen.add(key) !== undefined;
              });
              reportDiagnostics(ctx.io, fresh);
            }
            ctx.io.stdout(extensionSummary(plan, files, programs, seen.size));
            return EXIT_OK;
          }
          if (plan.unread) {
            ctx.io.stdout(
              `note: no contract's rules read what these rules derive (${plan.unread.join(', ')}): with --rules they change nothing; checked as a program of their own\n`,
            );
          }
          const { program: p, warnings } = loadWithIncludes(files, o.includePath);
          reportDiagnostics(ctx.io, warnings);
          const rules = p.clauses.filter((c) => !c.clause.isFact).length;
          ctx.io.stdout(`ok: ${p.relations.length} relations, ${rules} rules, ${p.strata.length} strata, ${warnings.length} warnings\n`);
          return EXIT_OK;
        }),
      );
    });

  program
    .command('explain-tuple')
    .description(
      "print a minimal-height proof of a derived tuple, e.g. explain-tuple rules.dl -F facts 'path(1,5)'; exit 1 with the why-not analysis when it is not derived",
    )
    .argument('<rules-and-tuple...>', 'rule files followed by the tuple to explain')
    .option(
      '-I, --include-path <dir>',
      'directory searched for `#include`s (repeatable; then the shipped rules; `<ptolog/...>` is the shipped rules)',
      collect,
      [],
    )
    .option('-F, --fact-dir <dir>', 'directory holding <relation>.facts for each .input relation', '.')
    .option('--why-not', 'explain why the tuple is NOT derived (same as the why-not command)')
    .action(async (args: string[], o: FactOpts & { whyNot?: boolean }) => {
      ctx.setExit(
        await guarded(ctx.io, () => {
          const { files, tuple } = rulesAndTuple(args);
          return explainOrWhyNot(ctx, files, tuple, o, o.whyNot === true);
        }),
      );
    });

  program
    .command('why-not')
    .description(
      "for a tuple that is not derived, print for each rule of its relation the first body literal that fails, e.g. why-not rules.dl -F facts 'path(5,1)'; exit 1 (with its proof) when it is derived",
    )
    .argument('<rules-and-tuple...>', 'rule files followed by the tuple')
    .option(
      '-I, --include-path <dir>',
      'directory searched for `#include`s (repeatable; then the shipped rules; `<ptolog/...>` is the shipped rules)',
      collect,
      [],
    )
    .option('-F, --fact-dir <dir>', 'directory holding <relation>.facts for each .input relation', '.')
    .action(async (args: string[], o: FactOpts) => {
      ctx.setExit(
        await guarded(ctx.io, () => {
          const { files, tuple } = rulesAndTuple(args);
          return explainOrWhyNot(ctx, files, tuple, o, true);
        }),
      );
    });
}
