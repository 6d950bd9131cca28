import { join } from 'node:path';
import type { Command } from 'commander';
import { loadProgram } from '../../datalog/index.js';
import { extractFacts } from '../../facts/extract.js';
import { MemorySink } from '../../facts/sink.js';
import { writeFactFiles } from '../../facts/tsv.js';
import { moduleErrors, parseDefines, parseModuleIsolated } from '../../frontend/index.js';
import { rulesDir } from '../../passes/registry.js';
import type { CommandContext } from '../context.js';
import { defineTypos } from '../define-typos.js';
import { ensureOutputDir, readText, writingOutputs } from '../files.js';
import { EXIT_FAILURE, EXIT_OK, guarded, reportDiagnostics } from '../io.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

/** `facts`: dump a program's facts as Soufflé `.facts` files. */
export function registerFactsCommand(program: Command, ctx: CommandContext): void {
  program
    .command('facts')
    .description('write the facts of a file (relations of rules/schema.dl) as Soufflé .facts files')
    .argument('<file>', 'a Python module holding @pl.program classes')
    .requiredOption('--out <dir>', 'directory to write <relation>.facts files into')
    .option('-D, --define <NAME=VALUE>', 'define or override a module constant (repeatable)', collect, [])
    .action(async (file: string, o: { out: string; define: string[] }) => {
      ctx.setExit(
        await guarded(ctx.io, () => {
          const defines = parseDefines(o.define);
          // Read as every command reads a file (one message per reason, ENOTDIR included).
          const module = parseModuleIsolated(readText(file), file, { defines });
          const readErrors = moduleErrors(module);
          reportDiagnostics(ctx.io, [...defineTypos(module, defines), ...readErrors]);
          ensureOutputDir(o.out, '--out');
          const sink = new MemorySink();
          extractFacts(module, sink);
          const schema = loadProgram([join(rulesDir(), 'schema.dl')]).program;
          const rels = schema.relations.filter((r) => r.input).map((r) => r.name);
          const n = writingOutputs(o.out, '--out', () => writeFactFiles(o.out, sink, rels));
          ctx.io.stderr(`wrote ${n} facts in ${rels.length} relations to ${o.out}\n`);
          return readErrors.length > 0 ? EXIT_FAILURE : EXIT_OK;
        }),
      );
    });
}
