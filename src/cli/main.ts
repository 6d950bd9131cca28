import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { DiagnosticError } from '../report/diagnostic.js';
import { closestName } from '../report/suggest.js';
import { commandModules } from './commands/index.js';
import type { CommandContext } from './context.js';
import { type CliIO, EXIT_FAILURE, processIO, reportDiagnostics } from './io.js';

export type { CommandContext } from './context.js';
export { processIO } from './io.js';

/** ptolog's version, from its package.json (two levels above src/cli and dist/cli). */
export function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Builds the commander program with every command registered. */
export function buildProgram(ctx: CommandContext): Command {
  const program = new Command('ptolog')
    .description('Audit and rewrite PyPTO kernels with declarative Datalog rules.')
    .version(version(), '-V, --version', 'print the version')
    .option('--no-cache', 'compile the rule files from source: read and write no cache of compiled rules')
    .hook('preAction', (cmd) => {
      if (cmd.opts()['cache'] === false) ctx.io = { ...ctx.io, noCache: true };
    })
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.io.stdout(s),
      writeErr: (s) => ctx.io.stderr(s),
    });
  for (const register of commandModules) register(program, ctx);
  return program;
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  let code = 0;
  const ctx: CommandContext = { io, setExit: (c) => (code = c) };
  const program = buildProgram(ctx);
  if (argv[0] === 'help' && argv[1] !== undefined && !argv[1].startsWith('-')) {
    const names = program.commands.map((c) => c.name());
    if (!names.includes(argv[1])) {
      const near = closestName(argv[1], names);
      io.stderr(`error: unknown command '${argv[1]}'${near ? ` (did you mean ${near}?)` : ''}; the commands are ${names.join(', ')}.\n`);
      return EXIT_FAILURE;
    }
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version exit 0; usage errors exit 2 ("could not run").
      return e.exitCode === 0 ? 0 : EXIT_FAILURE;
    }
    // An option parser's located error: a usage error too, never a stack trace.
    if (e instanceof DiagnosticError) {
      reportDiagnostics(io, e.diagnostics);
      return EXIT_FAILURE;
    }
    throw e;
  }
  return code;
}
