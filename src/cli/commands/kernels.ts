/**
 * `audit` and `apply` over many files: paths, directories, globs and `-` (stdin); configuration;
 * a worker pool; thresholds, statistics, colour and progress.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { AUDIT_STAGES } from '../../passes/analyze.js';
import { catalogForRules } from '../../passes/catalog.js';
import { PASSES, rulesDir } from '../../passes/registry.js';
import { type Diagnostic, DiagnosticError, type Severity } from '../../report/diagnostic.js';
import { type FindingFormat, renderFindings } from '../../report/render.js';
import type { CodeHelp } from '../../report/sarif.js';
import { renderDiagnostics } from '../../report/text.js';
import { fromWire } from '../../report/wire.js';
import { notAKernelsFile } from '../../runner/quiet.js';
import type { CommandContext } from '../context.js';
import type { FileResult, FileTask } from '../file-task.js';
import { decodeSource } from '../files.js';
import { settleHelperFiles } from '../helper-edits.js';
import { type CliIO, EXIT_FAILURE, EXIT_OK, guarded, ruleSessionOf, writeSourceOut } from '../io.js';
import { seconds, tupleCount } from '../limits.js';
import { type ColorMode, colorize, Progress, statistics, thresholdExit, useColor } from '../output.js';
import { ownViewFirst } from '../own-view.js';
import { runTasks } from '../pool.js';
import { Settings, type SharedOpts } from '../settings.js';
import { expandTargets } from '../targets.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

function positiveInt(name: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    // A usage error (exit 2), as commander reports any other bad option value.
    if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n))
      throw new InvalidArgumentError(`${name} expects a non-negative integer, got "${v}".`);
    return n;
  };
}

/** Options of `audit` and `apply`. */
interface KernelOpts extends SharedOpts {
  stdinFilename?: string;
  jobs?: number;
  quiet?: boolean;
  verbose?: boolean;
  statistics?: boolean;
  color: ColorMode;
}

/** Adds the options `audit` and `apply` share. */
export function kernelOptions(cmd: Command): Command {
  return cmd
    .option('--pass <name>', `pass to run (repeatable): ${PASSES.map((p) => p.name).join(', ')}`, collect, [])
    .option('--rules <dir>', 'extra rule files (.dl) extending the shipped rules (repeatable)', collect, [])
    .option(
      '-I, --include-path <dir>',
      'directory searched for `#include`s of rule files (repeatable; `<ptolog/...>` is the shipped rules)',
      collect,
      [],
    )
    .option('--rules-root <dir>', 'use this directory (an edited copy of the shipped rules/) in place of rules/')
    .option('-D, --define <NAME=VALUE>', 'define or override a module constant (repeatable)', collect, [])
    .option(
      '--import-root <dir>',
      "directory searched for the modules a kernel file imports helpers from (repeatable; after the file's folder and the project's package roots)",
      collect,
      [],
    )
    .option('--config <file>', 'use this pyproject.toml / ptolog.toml instead of looking for one')
    .option('--isolated', 'ignore every configuration file')
    .option(
      '--exclude <glob>',
      'skip matching paths inside directories and globs (repeatable; adds to the configured exclude)',
      collect,
      [],
    )
    .option('--stdin-filename <path>', 'the path to report (and to find the configuration from) for `-` (standard input)')
    .option('-j, --jobs <n>', 'files checked in parallel (default: the number of cores)', positiveInt('--jobs'))
    .option('-q, --quiet', 'report errors only (and no summary)')
    .option('-v, --verbose', 'also note files that hold no kernel because they do not import PyPTO')
    .option('--statistics', 'after the findings, print how many there are of each code')
    .addOption(new Option('--color <when>', 'colour the output').choices(['auto', 'always', 'never']).default('auto'))
    .option('--report-unused-ignores', 'warn about `# ptolog: ignore[...]` comments that suppress nothing')
    .option(
      '--max-tuples <n>',
      'stop rule evaluation (exit 2, naming the relation) when a relation would hold more than N tuples',
      tupleCount,
    )
    .option(
      '--timeout <seconds>',
      'stop a rule evaluation (exit 2, naming the relation that grew) after this many seconds (each pass on each file)',
      seconds,
    );
}

interface Collected {
  tasks: FileTask[];
  settings: Settings;
  /** Paths that could not be read or matched nothing (the other files are still handled). */
  errors: Diagnostic[];
}

/**
 * Expands the paths and builds one task per file (stdin read here). A path that cannot be read is
 * an error beside the others' results; a run with nothing to read at all is an error too.
 */
async function collectTasks(
  io: CliIO,
  paths: string[],
  o: KernelOpts,
  command: FileTask['command'],
  extra: Partial<FileTask>,
): Promise<Collected> {
  const settings = new Settings(o, process.cwd());
  const targets = expandTargets(paths, settings.walkOptions());
  const errors = [...targets.errors];
  const tasks: FileTask[] = [];
  for (const f of targets.files) {
    if (f === '-') {
      if (!io.readStdin)
        throw new DiagnosticError([{ severity: 'error', code: 'bad-argument', message: 'standard input is not available.' }]);
      const name = o.stdinFilename ?? 'stdin.py';
      const input = await io.readStdin();
      const src = typeof input === 'string' ? { text: input, encoding: 'utf8' as const } : decodeSource(input);
      tasks.push(settings.task(command, name, { ...extra, stdinText: src.text, stdinEncoding: src.encoding }));
    } else tasks.push(settings.task(command, f, extra));
  }
  if (tasks.length === 0 && errors.length === 0) {
    // As ESLint does: nothing checked is not a success (an empty or fully excluded folder, a typo'd folder).
    errors.push({
      severity: 'error',
      code: 'no-files',
      message: `no Python file to ${command} in ${paths.join(', ')} (directories are searched for .py files, skipping excluded and git-ignored paths).`,
    });
  }
  return { tasks, settings, errors };
}

/** Deduplicates fatal diagnostics repeated across files (the same rule error for every file). */
function uniqueDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const k = [d.severity, d.code, d.message, d.location?.source.path ?? d.path ?? '', d.location?.start ?? -1, d.location?.end ?? -1].join(
      '\0',
    );
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * A definition is a typo only when no file of the run mentions its name: keep its
 * `unknown-define` warning then, once (for the first file); drop it when some file uses it.
 */
function oneUnknownDefine(perFile: Diagnostic[][]): Diagnostic[] {
  const nameOf = (d: Diagnostic): string => /^-D (\S+):/.exec(d.message)?.[1] ?? '';
  const unknownIn = new Map<string, number>();
  for (const ds of perFile)
    for (const d of ds) if (d.code === 'unknown-define') unknownIn.set(nameOf(d), (unknownIn.get(nameOf(d)) ?? 0) + 1);
  const reported = new Set<string>();
  return perFile.flat().filter((d) => {
    if (d.code !== 'unknown-define') return true;
    const n = nameOf(d);
    if (unknownIn.get(n) !== perFile.length || reported.has(n)) return false;
    reported.add(n);
    return true;
  });
}

interface Outcome {
  results: FileResult[];
  findings: Diagnostic[];
  fatal: Diagnostic[];
}

async function runAll(ctx: CommandContext, c: Collected, o: KernelOpts): Promise<Outcome> {
  const progress = new Progress(ctx.io, c.tasks.length, ctx.io.stderrIsTTY === true && o.quiet !== true);
  const jobs = o.jobs === undefined || o.jobs === 0 ? (ctx.io.cpus ?? 1) : o.jobs;
  // The tasks run in this thread share the run's rule session (worker threads load their own).
  const results = await runTasks(c.tasks, jobs, ruleSessionOf(ctx.io), (d) => progress.tick(d));
  progress.end();
  // (A finding in a helper file is reported by each run that judges the helper: once.)
  const perFile = ownViewFirst(
    results.map((r) => fromWire(r.report)),
    c.tasks.map((t) => t.file),
  );
  let findings = uniqueDiagnostics([...c.settings.warnings(), ...oneUnknownDefine(perFile)]);
  if (!o.verbose) findings = findings.filter((d) => !notAKernelsFile(d));
  if (o.quiet) findings = findings.filter((d) => d.severity === 'error');
  const fatal = uniqueDiagnostics([...c.errors, ...results.flatMap((r) => (r.fatal ? fromWire(r.fatal) : []))]);
  return { results, findings, fatal };
}

/** SARIF's rule descriptions: the catalog of the rules the tasks load. */
function describer(tasks: readonly FileTask[]): (code: string) => CodeHelp | undefined {
  try {
    const catalog = catalogForRules(tasks[0]?.rulesRoot ?? rulesDir(), [...new Set(tasks.flatMap((t) => t.rules))]);
    return (code) => catalog.get(code);
  } catch {
    return () => undefined; // a catalog that cannot be read was reported by the run itself
  }
}

/**
 * guarded() for a command whose stdout is one JSON / SARIF document: when the run cannot even
 * start (a bad configuration, bad rules), the document still comes out, holding the errors.
 */
async function guardedDocument(io: CliIO, format: FindingFormat, body: () => Promise<number>): Promise<number> {
  if (format === 'text') return guarded(io, body);
  return guarded(io, async () => {
    try {
      return await body();
    } catch (e) {
      const ds: Diagnostic[] =
        e instanceof DiagnosticError
          ? e.diagnostics
          : [{ severity: 'error', code: 'internal-error', message: `internal error: ${e instanceof Error ? e.message : String(e)}` }];
      io.stdout(`${renderFindings([], format, ds)}\n`);
      if (e instanceof DiagnosticError) io.stderr(`${renderDiagnostics(ds)}\n`);
      else throw e;
      return EXIT_FAILURE;
    }
  });
}

function textOut(ctx: CommandContext, o: KernelOpts, stream: 'stdout' | 'stderr', text: string): void {
  const color = useColor(o.color, stream === 'stdout' ? ctx.io.stdoutIsTTY : ctx.io.stderrIsTTY, ctx.io.env);
  ctx.io[stream](color ? colorize(text) : text);
}

function exitOf(out: Outcome, settings: Settings): number {
  if (out.fatal.length > 0) return EXIT_FAILURE;
  return thresholdExit(out.findings, settings.failOn, settings.maxWarnings);
}

/** `audit` and `apply`. */
export function registerKernelCommands(program: Command, ctx: CommandContext): void {
  kernelOptions(
    program
      .command('audit')
      .description('report where the contracts are not met (exit 1 with findings at --fail-on or above)')
      .argument('[paths...]', 'Python files, directories (their .py files, recursively), globs, or - for standard input', ['.']),
  )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'sarif']).default('text'))
    .addOption(
      new Option('--fail-on <severity>', 'exit 1 when a finding is at least this severe (default: warning)').choices([
        'error',
        'warning',
        'note',
      ]),
    )
    .option('--max-warnings <n>', 'exit 1 when there are more than N warnings', positiveInt('--max-warnings'))
    .addOption(
      new Option(
        '--stage <stage>',
        "judge the file as PyPTO's Default pipeline compiles it (pipeline, the default: what its passes insert is a note) or as the text stands (as-written)",
      ).choices([...AUDIT_STAGES]),
    )
    .addOption(
      new Option(
        '--as-written',
        'same as --stage as-written: judge the text as it stands (pass dumps, PTO-level code, pipelines without the passes)',
      ).conflicts('stage'),
    )
    .action(async (paths: string[], o: KernelOpts & { format: FindingFormat }) => {
      ctx.setExit(
        await guardedDocument(ctx.io, o.format, async () => {
          const c = await collectTasks(ctx.io, paths, o, 'audit', {});
          const out = await runAll(ctx, c, o);
          // Errors (what could not be read): on stderr for text; inside the one JSON / SARIF document otherwise.
          if (out.fatal.length > 0 && o.format === 'text') textOut(ctx, o, 'stderr', `${renderDiagnostics(out.fatal)}\n`);
          if (o.format === 'text') {
            // The summary counts what could not be read as errors too; -q prints none.
            const text = renderFindings(out.findings, 'text', out.fatal, undefined, { summary: !o.quiet });
            if (text !== '') textOut(ctx, o, 'stdout', `${text}\n`);
            // As ruff does: a clean run says so (and how much it read), never nothing at all.
            else if (out.fatal.length === 0 && !o.quiet) {
              const n = c.tasks.length;
              textOut(ctx, o, 'stdout', `All checks passed (${n} file${n === 1 ? '' : 's'} audited).\n`);
            }
          } else {
            // One document, errors included; SARIF's rules are described from the diagnostic catalog.
            ctx.io.stdout(`${renderFindings(out.findings, o.format, out.fatal, describer(c.tasks))}\n`);
          }
          const counted = [...out.fatal, ...out.findings];
          if (o.statistics && counted.length > 0) ctx.io[o.format === 'text' ? 'stdout' : 'stderr'](`${statistics(counted)}\n`);
          return exitOf(out, c.settings);
        }),
      );
    });

  kernelOptions(
    program
      .command('apply')
      .description('apply the contract passes and print the patched file(s) (only inserted/edited text changes)')
      .argument('<paths...>', 'Python files, directories (their .py files, recursively), globs, or - for standard input'),
  )
    .addOption(new Option('--write', 'replace each changed file atomically instead of printing it').conflicts('diff'))
    .option('--diff', 'print a unified diff (apply it with `git apply` or `patch -p1`) instead of the files')
    .action(async (paths: string[], o: KernelOpts & { write?: boolean; diff?: boolean }) => {
      ctx.setExit(
        await guarded(ctx.io, async () => {
          const mode = o.write ? 'write' : o.diff ? 'diff' : 'print';
          if (mode === 'write' && paths.includes('-')) {
            throw new DiagnosticError([
              {
                severity: 'error',
                code: 'bad-argument',
                message: 'apply --write cannot write standard input; drop --write to print the result.',
              },
            ]);
          }
          const c = await collectTasks(ctx.io, paths, o, 'apply', { mode });
          const out = await runAll(ctx, c, o);
          const helperFiles = settleHelperFiles(c.tasks, out.results, ruleSessionOf(ctx.io));
          if (out.findings.length > 0) textOut(ctx, o, 'stderr', `${renderDiagnostics(out.findings)}\n`);
          if (out.fatal.length > 0) textOut(ctx, o, 'stderr', `${renderDiagnostics(out.fatal)}\n`);
          const several = c.tasks.length > 1 || out.results.some((r) => (r.others ?? []).length > 0);
          let printed = 0;
          c.tasks.forEach((t, i) => {
            const r = out.results[i]!;
            // A file with a program or function that could not be read is still printed (that part untouched).
            if (r.output === undefined) return;
            if (mode === 'print' && several) ctx.io.stdout(`${printed++ > 0 ? '\n' : ''}# ==> ${t.file} <==\n`);
            // In the file's own encoding: a Latin-1 byte stays that byte.
            writeSourceOut(ctx.io, r.output, r.encoding);
            // The helper files the file's run inserted markers into (diffs and writes are done already).
            if (mode !== 'print') return;
            for (const h of r.others ?? []) {
              ctx.io.stdout(`\n# ==> ${h.file} <==\n`);
              writeSourceOut(ctx.io, h.after, 'utf8');
            }
          });
          if (o.statistics && out.findings.length > 0) ctx.io.stderr(`${statistics(out.findings)}\n`);
          if (mode === 'write' && !o.quiet) {
            const ok = out.results.filter((r) => r.changed !== undefined);
            const changed = ok.filter((r) => r.changed);
            const files = changed.length + helperFiles;
            const edits = ok.reduce((n, r) => n + (r.applied ?? 0), 0);
            const failed = out.results.length - ok.length + c.errors.length;
            const unchanged = ok.length - changed.length;
            const head =
              files > 0
                ? `applied ${edits} edit${edits === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`
                : failed > 0
                  ? 'no file written'
                  : 'nothing to change';
            ctx.io.stderr(
              `ptolog: ${head}` +
                `${unchanged > 0 ? `, ${unchanged} file${unchanged === 1 ? '' : 's'} unchanged` : ''}` +
                `${failed > 0 ? `, ${failed} file${failed === 1 ? '' : 's'} not written (errors above)` : ''}` +
                `${out.fatal.length > 0 && ok.some((r) => r.fatal) ? '; parts that could not be read were left untouched' : ''}.\n`,
            );
          }
          // apply's exit: 2 when a file could not be handled; findings do not fail it (audit does).
          return out.fatal.length > 0 ? EXIT_FAILURE : EXIT_OK;
        }),
      );
    });
}

/** Severity names accepted by --fail-on. */
export type FailOn = Severity;
