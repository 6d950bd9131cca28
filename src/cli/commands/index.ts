import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { registerContractCommands } from './contracts.js';
import { registerDatalogCommands } from './datalog.js';
import { registerFactsCommand } from './facts.js';
import { registerFmtCommand } from './fmt.js';
import { registerKernelCommands } from './kernels.js';
import { registerLspCommand } from './lsp.js';
import { registerRulesCommand } from './rules.js';
import { registerTestCommand } from './test.js';
import { registerVerifyCommand } from './verify.js';

/** A command module adds its commands to the program. */
export type CommandModule = (program: Command, ctx: CommandContext) => void;

/** Every command module, in help order. */
export const commandModules: CommandModule[] = [
  registerKernelCommands,
  registerContractCommands,
  registerRulesCommand,
  registerTestCommand,
  registerVerifyCommand,
  registerFmtCommand,
  registerFactsCommand,
  registerDatalogCommands,
  registerLspCommand,
];
