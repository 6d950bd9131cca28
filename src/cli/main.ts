import { Command, CommanderError } from 'commander';
import { processIO, EXIT_FAILURE, type CliIO } from './io.js';
import { commandModules } from './commands/index.js';

/** Context handed to each command module: the IO and a slot for the command's exit code. */
export interface CommandContext {
  io: CliIO;
  setExit(code: number): void;
}

/** Builds the commander program with every command registered. */
export function buildProgram(ctx: CommandContext): Command {
  const program = new Command('ptolog')
    .description('Audit and rewrite PyPTO kernels with declarative Datalog rules.')
    .showHelpAfterError()
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
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version exit 0; usage errors exit 2 ("could not run").
      return e.exitCode === 0 ? 0 : EXIT_FAILURE;
    }
    throw e;
  }
  return code;
}
