import type { EvalResult, RuleProgram } from '../datalog/index.js';
import type { Term } from '../datalog/ast.js';
import type { Diagnostic, Location } from '../report/diagnostic.js';

/** The string a constant term spells, or null when the term is not a string constant. */
function constString(t: Term | undefined): string | null {
  return t?.kind === 'str' ? t.value : null;
}

/** Where `op_effect(op, effect, arg)` is declared: the fact saying it, else the first rule deriving op_effect. */
function declarationOf(program: RuleProgram, tuple: readonly string[]): Location | undefined {
  let rule: Location | undefined;
  for (const { clause } of program.clauses) {
    if (clause.head.rel !== 'op_effect') continue;
    const args = clause.head.args.map(constString);
    if (clause.isFact && args.every((a, i) => a === tuple[i])) return clause.loc;
    rule ??= clause.isFact ? undefined : clause.loc;
  }
  return rule;
}

/**
 * The located errors for effect declarations the op catalog cannot use (`bad_op_effect`, derived
 * by rules/ops.dl from the rule files' facts alone) in an evaluation's result: one per
 * declaration, at the fact declaring it. Empty when the program has no `bad_op_effect` relation.
 */
export function badOpEffects(result: EvalResult): Diagnostic[] {
  const program = result.program;
  if (!program.relation('bad_op_effect')) return [];
  const out: Diagnostic[] = [];
  for (const row of result.tuples('bad_op_effect')) {
    const [op, effect, arg, why] = row.map(String) as [string, string, string, string];
    const location = declarationOf(program, [op, effect, arg]);
    out.push({
      severity: 'error',
      code: 'bad-op-effect',
      message: `op_effect("${op}", "${effect}", "${arg}") cannot be used: ${why}`,
      fix: 'name one of the op\'s parameters (op_param facts in rules/op_catalog.dl, or declare them for a new op with op_param), and an effect listed in rules/ops.dl',
      ...(location ? { location } : {}),
    });
  }
  return out;
}
