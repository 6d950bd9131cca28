/**
 * `ptolog lsp [--stdio] [--pass NAME]... [--rules DIR]... [-D NAME=VALUE]... [--stage STAGE | --as-written]`: the language
 * server over stdio. The only place the server touches the process (its stdin/stdout, cwd).
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { Option } from 'commander';
import { parseDefines } from '../../frontend/index.js';
import type { LspSettings } from '../../lsp/index.js';
import { AUDIT_STAGES, type AuditStage } from '../../passes/analyze.js';
import { type CacheSpec, cacheSpecOf } from '../../runner/rule-cache.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK, guarded } from '../io.js';
import { selectPasses } from '../passes.js';

/** The server options' cache field, when there is a cache. */
function withCacheSpec(spec: CacheSpec | undefined): { cacheSpec?: CacheSpec } {
  return spec ? { cacheSpec: spec } : {};
}

const collect = (v: string, prev: string[]): string[] => [...prev, v];

interface LspOpts {
  pass: string[];
  rules: string[];
  define: string[];
  asWritten?: boolean;
  stage?: AuditStage;
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
    .addOption(
      new Option('--stage <stage>', "the stage documents are judged at, over the configuration's (see audit --stage)").choices(
        AUDIT_STAGES,
      ),
    )
    .option('--as-written', 'same as --stage as-written')
    .action(async (o: LspOpts) => {
      ctx.setExit(
        await guarded(ctx.io, async () => {
          const settings: LspSettings = {
            passes: selectPasses(o.pass, o.rules),
            ruleDirs: o.rules,
            defines: parseDefines(o.define),
            ...(o.asWritten ? { stage: 'as-written' as const } : o.stage ? { stage: o.stage } : {}),
          };
          // Loaded here so the other commands do not pay for the LSP packages.
          const { createConnection } = await import('vscode-languageserver/node');
          const { startServer, watchRulePaths, configuredSettings, configuredFilter } = await import('../../lsp/index.js');
          const connection = createConnection(process.stdin, process.stdout);
          // Each document's configuration (pyproject.toml / ptolog.toml from its directory upwards)
          // and suppression comments, as the CLI applies them.
          const read = (p: string): string | undefined => {
            try {
              return readFileSync(p, 'utf8');
            } catch {
              return undefined;
            }
          };
          startServer(
            connection,
            {
              settingsFor: configuredSettings(settings, o.pass.length > 0, read),
              filterFindings: configuredFilter(read),
              watch: watchRulePaths,
              ...(ctx.io.analysisThread ? { worker: ctx.io.analysisThread } : {}),
              // The compiled rules: the package's prebuilt ones and the user's cache (as every command uses them).
              ...withCacheSpec(cacheSpecOf(ctx.io.env ?? {}, ctx.io.noCache === true)),
            },
            process.cwd(),
          );
          const closed = new Promise<void>((resolve) => connection.onExit(() => resolve()));
          connection.listen();
          await closed;
          return EXIT_OK;
        }),
      );
    });
}
