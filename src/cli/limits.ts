// The evaluation bounds `run`, `apply`, `audit` and `verify` accept: --max-tuples N and --timeout S.
import { type Command, InvalidArgumentError } from 'commander';

/** A commander parser for a positive number of seconds. */
export function seconds(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('the timeout must be a positive number of seconds.');
  return n;
}

/** A commander parser for a positive integer tuple count. */
export function tupleCount(v: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('--max-tuples must be a positive integer.');
  return n;
}

/** The bounds as given on the command line. */
export interface LimitOpts {
  maxTuples?: number;
  timeout?: number;
}

/** Adds --max-tuples (and --timeout unless the command has its own) to `cmd`. */
export function limitOptions(cmd: Command, withTimeout = true): Command {
  cmd.option(
    '--max-tuples <n>',
    'stop rule evaluation (exit 2, naming the relation) when a relation would hold more than N tuples',
    tupleCount,
  );
  if (withTimeout)
    cmd.option('--timeout <seconds>', 'stop rule evaluation (exit 2, naming the relation that grew) after this many seconds', seconds);
  return cmd;
}

/** The evaluate options of the bounds (the time counted from the start of each evaluation). */
export function evaluationBounds(o: LimitOpts): { maxTuples?: number; timeoutSeconds?: number } {
  return {
    ...(o.maxTuples !== undefined ? { maxTuples: o.maxTuples } : {}),
    ...(o.timeout !== undefined ? { timeoutSeconds: o.timeout } : {}),
  };
}
