/**
 * `ptolog fmt FILE... [-D NAME=VALUE]... [--check | --diff | --write]`: each file with its
 * programs in canonical form (see `src/ir/print.ts`), everything else kept (see fmt-in-place.ts).
 *
 * - One file: the formatted file on stdout. Several files: each preceded by a `# ==> path <==`
 *   line, files separated by one blank line. A file with no `@pl.program` prints nothing.
 * - FILE may be a directory (its `.py` files, recursively) or a glob; a path that cannot be
 *   read is an error beside the other files' output; nothing to read at all is `no-files`.
 * - `--check`: prints `path: not canonical` on stderr for each file that formatting changes;
 *   exit 1 when any, else 0. `--diff`: a unified diff of the changes. `--write`: rewrites them.
 * - `-D NAME=VALUE` (repeatable) overrides a module constant, as for the other commands.
 * - A program or function that cannot be read is a located diagnostic on stderr and exit 2;
 *   that file is left out (never printed or written with a part missing).
 */
import type { Command } from 'commander';
import { DEFAULT_EXCLUDE } from '../../config/config.js';
import { moduleErrors, parseDefines, readModuleIsolated } from '../../frontend/index.js';
import { unprintableFunctions } from '../../ir/print.js';
import { type Diagnostic, DiagnosticError } from '../../report/diagnostic.js';
import type { CommandContext } from '../context.js';
import { defineTypos } from '../define-typos.js';
import { unifiedDiff } from '../file-task.js';
import { readSource, writeAtomic } from '../files.js';
import { formatInPlace } from '../fmt-in-place.js';
import { EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK, guarded, reportDiagnostics } from '../io.js';
import { expandTargets } from '../targets.js';

interface FmtOptions {
  define: string[];
  check?: boolean;
  diff?: boolean;
  write?: boolean;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `fmt`: print the canonical form of every program in each file (`--check`: exit 1 when not canonical). */
export function registerFmtCommand(program: Command, ctx: CommandContext): void {
  program
    .command('fmt')
    .description('print the canonical form of every program in each FILE')
    .argument('<file...>', 'PyPTO module(s) to format')
    .option('-D, --define <NAME=VALUE>', 'define or override a module constant (repeatable)', collect, [])
    .option('--check', 'print nothing; exit 1 when a file is not already in canonical form')
    .option('--diff', 'print a unified diff of what formatting changes (exit 0)')
    .option('--write', 'rewrite each file that is not in canonical form in place')
    .action(async (files: string[], opts: FmtOptions) => {
      const code = await guarded(ctx.io, () => {
        const defines = parseDefines(opts.define);
        const outputs: { path: string; source: string; text: string; canonical: boolean; empty: boolean }[] = [];
        const problems: Diagnostic[] = [];
        let failed = false;
        const targets = expandTargets(files, { exclude: DEFAULT_EXCLUDE, excludeRoot: process.cwd() });
        // A path that cannot be read is reported beside the other files' output; nothing at all to read is an error.
        if (targets.errors.length > 0) {
          problems.push(...targets.errors);
          failed = true;
        } else if (targets.files.length === 0) {
          problems.push({ severity: 'error', code: 'no-files', message: `no Python file to format in ${files.join(', ')}.` });
          failed = true;
        }
        for (const path of targets.files) {
          let mod;
          try {
            mod = readModuleIsolated(path, { defines });
          } catch (e) {
            if (!(e instanceof DiagnosticError)) throw e;
            problems.push(...e.diagnostics);
            failed = true;
            continue;
          }
          problems.push(...defineTypos(mod, defines), ...(mod.problems ?? []));
          const unprintable = unprintableFunctions(mod);
          problems.push(...unprintable);
          if (moduleErrors(mod).length > 0 || unprintable.length > 0) {
            // Never print a program with a function missing: the file's output is left out.
            failed = true;
            continue;
          }
          const text = mod.programs.length === 0 ? '' : formatInPlace(mod);
          outputs.push({
            path,
            source: mod.source.text,
            text,
            canonical: mod.programs.length === 0 || text === mod.source.text,
            empty: mod.programs.length === 0,
          });
        }
        // --check prints nothing about files that are fine: a `no-program` note is left out there.
        reportDiagnostics(ctx.io, opts.check ? problems.filter((d) => d.severity !== 'note') : problems);
        if (opts.check) {
          let bad = 0;
          for (const o of outputs) {
            if (!o.canonical) {
              bad++;
              ctx.io.stderr(`${o.path}: not canonical (ptolog fmt --diff shows what would change)\n`);
            }
          }
          return failed ? EXIT_FAILURE : bad > 0 ? EXIT_FINDINGS : EXIT_OK;
        }
        if (opts.diff) {
          for (const o of outputs) if (!o.canonical) ctx.io.stdout(unifiedDiff(o.path, o.source, o.text));
          return failed ? EXIT_FAILURE : EXIT_OK;
        }
        if (opts.write) {
          let written = 0;
          for (const o of outputs) {
            if (o.canonical) continue;
            try {
              writeAtomic(o.path, o.text, readSource(o.path).encoding);
              written++;
            } catch (e) {
              if (!(e instanceof DiagnosticError)) throw e;
              reportDiagnostics(ctx.io, e.diagnostics);
              failed = true;
            }
          }
          ctx.io.stderr(
            `ptolog: ${written > 0 ? `formatted ${written} file${written === 1 ? '' : 's'}` : failed ? 'no file written' : 'nothing to change'}.\n`,
          );
          return failed ? EXIT_FAILURE : EXIT_OK;
        }
        if (outputs.length === 1) {
          ctx.io.stdout(outputs[0]!.text);
        } else {
          outputs.forEach((o, i) => {
            ctx.io.stdout(`${i > 0 ? '\n' : ''}# ==> ${o.path} <==\n${o.text}`);
          });
        }
        return failed ? EXIT_FAILURE : EXIT_OK;
      });
      ctx.setExit(code);
    });
}
