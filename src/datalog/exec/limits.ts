// Why an evaluation stopped early: a deadline or a tuple bound, located at the relation that grew.
import { type Diagnostic, DiagnosticError, errorAt } from '../../report/diagnostic.js';
import type { RelationInfo } from '../check/program.js';

function located(info: RelationInfo, code: string, message: string, fix: string): Diagnostic {
  const l = info.loc;
  return errorAt(l.source, l.start, l.end, code, message, { fix });
}

const NONTERMINATION = 'a rule deriving it may never stop (e.g. `n(X + 1) :- n(X).` counts up without end)';

/** Evaluation stopped before its fixpoint; a DiagnosticError located at the relation that grew. */
export class EvaluationStopped extends DiagnosticError {
  constructor(
    diagnostic: Diagnostic,
    readonly relation: string,
    readonly iterations: number,
  ) {
    super([diagnostic]);
    this.name = 'EvaluationStopped';
  }
}

/** Thrown by `evaluate` when its deadline passes (the rules may not terminate). */
export class EvaluationTimeout extends EvaluationStopped {
  constructor(info: RelationInfo, iterations: number, count: number, seconds?: number) {
    super(
      located(
        info,
        'evaluation-timeout',
        `rule evaluation did not finish ${seconds !== undefined ? `within ${seconds} s` : 'in time'} (stopped after ${iterations} iterations); ${info.name} grew most, to ${count} tuples`,
        `${NONTERMINATION}; check the rules deriving ${info.name}, or allow more time${seconds !== undefined ? ' (--timeout)' : ''}.`,
      ),
      info.name,
      iterations,
    );
    this.name = 'EvaluationTimeout';
  }
}

/** Thrown by `evaluate` when a relation would hold more tuples than `maxTuples`. */
export class TupleLimitExceeded extends EvaluationStopped {
  constructor(info: RelationInfo, iterations: number, maxTuples: number) {
    super(
      located(
        info,
        'too-many-tuples',
        `rule evaluation stopped: ${info.name} grew past ${maxTuples} tuples (--max-tuples ${maxTuples}) after ${iterations} iterations`,
        `${NONTERMINATION}; check the rules deriving ${info.name}, or raise --max-tuples.`,
      ),
      info.name,
      iterations,
    );
    this.name = 'TupleLimitExceeded';
  }
}
