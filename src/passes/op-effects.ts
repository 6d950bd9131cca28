import type { EvalResult, RuleProgram } from '../datalog/index.js';
import type { Term } from '../datalog/syntax/ast.js';
import type { Diagnostic, Location } from '../report/diagnostic.js';

/** The string a constant term spells, or null when the term is not a string constant. */
function constString(t: Term | undefined): string | null {
  return t?.kind === 'str' ? t.value : null;
}

/** The relations declaring effects; their first three columns are (op, effect, arg). */
const EFFECT_RELATIONS: ReadonlySet<string> = new Set(['op_effect', 'op_effect_when']);

/**
 * Where `op_effect(op, effect, arg)` (or `op_effect_when(op, effect, arg, ...)`) is declared: the
 * fact saying it and its relation, else the first rule deriving op_effect.
 */
function declarationOf(program: RuleProgram, tuple: readonly string[]): { loc?: Location; rel: string } {
  let rule: Location | undefined;
  for (const { clause } of program.clauses) {
    if (!EFFECT_RELATIONS.has(clause.head.rel)) continue;
    const args = clause.head.args.map(constString);
    if (clause.isFact && tuple.every((a, i) => a === args[i])) return { loc: clause.loc, rel: clause.head.rel };
    rule ??= clause.isFact ? undefined : clause.loc;
  }
  return rule ? { loc: rule, rel: 'op_effect' } : { rel: 'op_effect' };
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
    const { loc: location, rel } = declarationOf(program, [op, effect, arg]);
    const shown = rel === 'op_effect' ? `op_effect("${op}", "${effect}", "${arg}")` : `${rel}("${op}", "${effect}", "${arg}", ...)`;
    out.push({
      severity: 'error',
      code: 'bad-op-effect',
      message: `${shown} cannot be used: ${why}`,
      fix: "name one of the op's parameters (op_param facts in rules/op_catalog.dl, or declare them for a new op with op_param), and an effect listed in rules/ops.dl",
      ...(location ? { location } : {}),
    });
  }
  // In the order they are declared (file, then position), not the order the rules derived them.
  return out.sort(
    (a, b) =>
      (a.location?.source.path ?? '').localeCompare(b.location?.source.path ?? '') || (a.location?.start ?? 0) - (b.location?.start ?? 0),
  );
}
