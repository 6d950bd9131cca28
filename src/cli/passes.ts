import { contractsWith, type PassSpec } from '../passes/registry.js';
import { DiagnosticError } from '../report/diagnostic.js';
import { closestName } from '../report/suggest.js';

/**
 * The passes named with --pass or in the configuration (all, in pipeline order, when none is
 * named), among the shipped ones and the contract folders given with --rules.
 */
export function selectPasses(names: readonly string[], ruleDirs: readonly string[] = []): PassSpec[] {
  const all = contractsWith(ruleDirs);
  if (names.length === 0) return all;
  const unknown = names.filter((n) => !all.some((p) => p.name === n));
  if (unknown.length > 0) {
    const near = closestName(
      unknown[0]!,
      all.map((p) => p.name),
    );
    throw new DiagnosticError([
      {
        severity: 'error',
        code: 'unknown-pass',
        message: `unknown pass ${unknown.join(', ')}${near ? ` (did you mean ${near}?)` : ''}; the passes are ${all.map((p) => p.name).join(', ')}.`,
      },
    ]);
  }
  // Keep pipeline order whatever order the flags were given in.
  return all.filter((p) => names.includes(p.name));
}
