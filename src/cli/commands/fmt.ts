/**
 * `ptolog fmt FILE... [-D NAME=VALUE]... [--check]`: prints the canonical form of every
 * program of each file (see `src/ir/print.ts` for what "canonical" means).
 *
 * - One file: its canonical form on stdout. Several files: each file's form preceded by a
 *   `# ==> path <==` line, files separated by one blank line.
 * - A file with no `@pl.program` prints nothing (and is never reported by `--check`).
 * - FILE may be a directory (its `.py` files, recursively, skipping git-ignored and the
 *   default-excluded paths) or a glob.
 * - `--check`: prints nothing on stdout; for each file whose text is not already its
 *   canonical form, writes `path: not canonical` to stderr (fmt is not suggested: it does not
 *   keep comments and docstrings yet); exit 1 when any file is not canonical, else 0.
 * - `-D NAME=VALUE` (repeatable) overrides a module constant, as for the other commands.
 * - A parse error is a located diagnostic on stderr and exit 2; the other files are not
 *   printed (the run stops at the first file that cannot be read).
 */
import type { Command } from 'commander';
import type { CommandContext } from '../main.js';
import { guarded, EXIT_FINDINGS, EXIT_OK } from '../io.js';
import { readModule, parseDefines } from '../../frontend/index.js';
import { printModule } from '../../ir/print.js';
import { DiagnosticError } from '../../report/diagnostic.js';
import { DEFAULT_EXCLUDE } from '../../config/config.js';
import { expandTargets } from '../targets.js';

interface FmtOptions {
  define: string[];
  check?: boolean;
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
    .action(async (files: string[], opts: FmtOptions) => {
      const code = await guarded(ctx.io, () => {
        const defines = parseDefines(opts.define);
        const outputs: { path: string; text: string; canonical: boolean; empty: boolean }[] = [];
        const targets = expandTargets(files, { exclude: DEFAULT_EXCLUDE, excludeRoot: process.cwd() });
        if (targets.errors.length > 0) throw new DiagnosticError(targets.errors);
        for (const path of targets.files) {
          const mod = readModule(path, { defines });
          const text = printModule(mod);
          outputs.push({
            path,
            text,
            canonical: mod.programs.length === 0 || text === mod.source.text,
            empty: mod.programs.length === 0,
          });
        }
        if (opts.check) {
          let bad = 0;
          for (const o of outputs) {
            if (!o.canonical) {
              bad++;
              ctx.io.stderr(`${o.path}: not canonical (ptolog fmt would print the canonical form, but without the file's comments and docstrings)\n`);
            }
          }
          return bad > 0 ? EXIT_FINDINGS : EXIT_OK;
        }
        if (outputs.length === 1) {
          ctx.io.stdout(outputs[0]!.text);
        } else {
          outputs.forEach((o, i) => {
            ctx.io.stdout(`${i > 0 ? '\n' : ''}# ==> ${o.path} <==\n${o.text}`);
          });
        }
        return EXIT_OK;
      });
      ctx.setExit(code);
    });
}
