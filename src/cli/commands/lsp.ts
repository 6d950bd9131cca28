/**
 * `ptolog lsp [--stdio] [--pass NAME]... [--rules DIR]... [-D NAME=VALUE]...`: the language
 * server over stdio. The only place the server touches the process (its stdin/stdout, cwd).
 */
import type { Command } from 'commander';
import type { CommandContext } from '../main.js';
import { guarded, EXIT_OK } from '../io.js';
import { parseDefines } from '../../frontend/index.js';
import type { LspSettings } from '../../lsp/index.js';
import { selectPasses } from './contracts.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

interface LspOpts {
  pass: string[];
  rules: string[];
  define: string[];
}

/** `lsp`: serve the Language Server Protocol on stdin/stdout until the client says exit. */
export function registerLspCommand(program: Command, ctx: CommandContext): void {
  program
    .command('lsp')
    .description('run the language server (LSP over stdio): diagnostics, quick fixes, hover')
    .option('--stdio', 'talk LSP on stdin/stdout (the default and only transport)')
    .option('--pass <name>', 'pass to run (repeatable); all when none is named', collect, [])
    .option('--rules <dir>', 'extra rule files (.dl), re-read when they change (repeatable)', collect, [])
    .option('-D, --define <NAME=VALUE>', 'define or override a module constant (repeatable)', collect, [])
    .action(async (o: LspOpts) => {
      ctx.setExit(
        await guarded(ctx.io, async () => {
          const settings: LspSettings = { passes: selectPasses(o.pass), ruleDirs: o.rules, defines: parseDefines(o.define) };
          // Loaded here so the other commands do not pay for the LSP packages.
          const { createConnection } = await import('vscode-languageserver/node');
          const { startServer, watchRulePaths } = await import('../../lsp/index.js');
          const connection = createConnection(process.stdin, process.stdout);
          // Configuration seam (issue 13): settingsFor(path) will read pyproject.toml from the file upwards.
          startServer(connection, { settingsFor: () => settings, watch: watchRulePaths }, process.cwd());
          const closed = new Promise<void>((resolve) => connection.onExit(() => resolve()));
          connection.listen();
          await closed;
          return EXIT_OK;
        }),
      );
    });
}
