// What main.ts hands each command module (its own module, so commands need not import main.ts).
import type { CliIO } from './io.js';

/** Context handed to each command module: the IO and a slot for the command's exit code. */
export interface CommandContext {
  io: CliIO;
  setExit(code: number): void;
}
