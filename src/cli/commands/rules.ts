import { isAbsolute, relative } from 'node:path';
import type { Command } from 'commander';
import { type CatalogEntry, catalogForRules } from '../../passes/catalog.js';
import { formatRuleHelp, formatRulesList, lookupCode } from '../../passes/catalog-text.js';
import { contractsWith, loadContracts, rulesDir } from '../../passes/registry.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK, guarded } from '../io.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

/** `ptolog rules [CODE]`: the contracts and the diagnostic catalog, or one code's help. */
export function registerRulesCommand(program: Command, ctx: CommandContext): void {
  program
    .command('rules')
    .description('list the contracts and every diagnostic code, or print the help of one code')
    .argument('[code]', 'a diagnostic code, e.g. missing-marker')
    .option('--rules <dir>', 'extra rule files (.dl), or a contract folder, whose diagnostics.toml adds codes (repeatable)', collect, [])
    .option('--rules-root <dir>', 'use this directory (an edited copy of the shipped rules/) in place of rules/')
    .action(async (code: string | undefined, o: { rules: string[]; rulesRoot?: string }) => {
      ctx.setExit(
        await guarded(ctx.io, () => {
          const root = o.rulesRoot ?? rulesDir();
          const catalog = catalogForRules(root, o.rules);
          // Catalog paths as the user reads them: relative to the working directory.
          const shown = (e: CatalogEntry): CatalogEntry => ({ ...e, path: isAbsolute(e.path) ? relative(process.cwd(), e.path) : e.path });
          // The shipped (or --rules-root) contracts and each --rules folder's own contract.
          const contracts = contractsWith(o.rules, o.rulesRoot === undefined ? undefined : loadContracts(root));
          if (code === undefined) ctx.io.stdout(formatRulesList(contracts, catalog));
          else ctx.io.stdout(formatRuleHelp(shown(lookupCode(catalog, code))));
          return EXIT_OK;
        }),
      );
    });
}
