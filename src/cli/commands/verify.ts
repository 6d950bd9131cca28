import { type Command, InvalidArgumentError } from 'commander';
import { readExtraRules } from '../../passes/extra-rules.js';
import { PASSES } from '../../passes/registry.js';
import { checkRulesRoot } from '../../passes/rules-root.js';
// The verifier (and fast-check with it) is loaded when `verify` runs, not at every start-up.
import { Runner } from '../../runner/runner.js';
import type { VerifyReport } from '../../verify/verify.js';
import type { CommandContext } from '../context.js';
import { EXIT_FINDINGS, EXIT_OK, guarded, ruleSessionOf } from '../io.js';
import { seconds, tupleCount } from '../limits.js';
import { selectPasses } from '../passes.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

function positiveInt(what: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${what} must be a positive integer.`);
    return n;
  };
}

function integer(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('the seed must be an integer.');
  return n;
}

interface VerifyOpts {
  pass: string[];
  rules: string[];
  rulesRoot?: string;
  runs: number;
  seed?: number;
  timeout: number;
  maxTuples?: number;
}

/** The report of a failed run: the property, how to replay, the shrunk program, the execution. */
export function failureText(r: Extract<VerifyReport, { ok: false }>, replay: string): string {
  const lines = [
    `verify failed: ${r.failure.property}: ${r.failure.message}`,
    `seed: ${r.seed} (replay: ${replay})`,
    `counterexample (program ${r.run}, shrunk in ${r.shrinks} steps):`,
    '',
    r.counterexample.trimEnd(),
    '',
  ];
  if (r.failure.detail) lines.push(r.failure.detail, '');
  return lines.join('\n');
}

/** `verify`: property-based verification of the rule set on generated programs. */
export function registerVerifyCommand(program: Command, ctx: CommandContext): void {
  program
    .command('verify')
    .description('check on generated programs that the rule set is idempotent, conservative, re-parses, terminates and is sound')
    .option('--pass <name>', `pass to verify (repeatable): ${PASSES.map((p) => p.name).join(', ')}`, collect, [])
    .option('--rules <dir>', 'extra rule files (.dl) extending the shipped rules (repeatable)', collect, [])
    .option('--rules-root <dir>', 'use this directory (an edited copy of the shipped rules/) in place of rules/')
    .option('--runs <n>', 'number of generated programs', positiveInt('--runs'), 100)
    .option('--seed <s>', 'fast-check seed (replays a failure)', integer)
    .option('--timeout <seconds>', 'time one apply may take before termination fails', seconds, 10)
    .option('--max-tuples <n>', 'a relation holding more than N tuples fails termination', tupleCount)
    .action(async (o: VerifyOpts) => {
      ctx.setExit(
        await guarded(ctx.io, async () => {
          const { verify } = await import('../../verify/verify.js');
          const passes = selectPasses(o.pass, o.rules);
          const runner = new Runner({
            passes,
            extras: readExtraRules(o.rules, passes),
            ...(o.maxTuples !== undefined ? { maxTuples: o.maxTuples } : {}),
            ...(o.rulesRoot !== undefined ? { rulesRoot: checkRulesRoot(o.rulesRoot, passes) } : {}),
            memory: { kind: 'tree' },
            session: ruleSessionOf(ctx.io),
          });
          const tty = process.stderr.isTTY === true;
          let last = 0;
          const report = verify({
            runner,
            runs: o.runs,
            timeoutMs: o.timeout * 1000,
            ...(o.seed !== undefined ? { seed: o.seed } : {}),
            ...(tty
              ? {
                  onProgress: (done: number, total: number) => {
                    const now = Date.now();
                    if (now - last < 200 && done < total) return;
                    last = now;
                    ctx.io.stderr(`\rverify: ${done}/${total} programs`);
                  },
                }
              : {}),
          });
          if (tty) ctx.io.stderr('\r\x1b[K');
          if (report.ok && report.refused === report.runs) {
            ctx.io.stdout(
              `verify failed: the rules refused all ${report.runs} generated programs with errors, so nothing was checked (run \`ptolog audit\` on one to see why)\n`,
            );
            return EXIT_FINDINGS;
          }
          if (report.ok) {
            const extra = report.properties.includes('sound') ? '' : ' (soundness is checked for insert-comm-fence, which is not selected)';
            ctx.io.stdout(`verified ${report.runs} programs: ${report.properties.join(', ')}${extra}\n`);
            const pct = (n: number): string => `${Math.round((100 * n) / report.runs)}%`;
            ctx.io.stdout(
              `rewritten by the rules: ${report.rewritten} (${pct(report.rewritten)}); refused with errors (nothing to check): ${report.refused} (${pct(report.refused)})\n`,
            );
            return EXIT_OK;
          }
          const args = [
            'ptolog verify',
            ...o.pass.map((p) => `--pass ${p}`),
            ...o.rules.map((r) => `--rules ${r}`),
            ...(o.rulesRoot !== undefined ? [`--rules-root ${o.rulesRoot}`] : []),
            `--runs ${o.runs}`,
            ...(o.timeout !== 10 ? [`--timeout ${o.timeout}`] : []),
            `--seed ${report.seed}`,
          ];
          ctx.io.stdout(failureText(report, args.join(' ')));
          return EXIT_FINDINGS;
        }),
      );
    });
}
