import type { Command } from 'commander';
import type { CommandContext } from '../main.js';
/** `test`: annotated rule tests. */
export function registerTestCommand(program: Command, ctx: CommandContext): void { void program; void ctx; }
