import { PASSES, passByName, type PassSpec } from '../passes/registry.js';
import { DiagnosticError } from '../report/diagnostic.js';
import { closestName } from '../report/suggest.js';

/** The passes named with --pass or in the configuration (all, in pipeline order, when none is named). */
export function selectPasses(names: readonly string[]): PassSpec[] {
  if (names.length === 0) return [...PASSES];
  const unknown = names.filter((n) => !passByName(n));
  if (unknown.length > 0) {
    const near = closestName(unknown[0]!, PASSES.map((p) => p.name));
    throw new DiagnosticError([{
      severity: 'error', code: 'unknown-pass',
      message: `unknown pass ${unknown.join(', ')}${near ? ` (did you mean ${near}?)` : ''}; the passes are ${PASSES.map((p) => p.name).join(', ')}.`,
    }]);
  }
  // Keep pipeline order whatever order the flags were given in.
  return PASSES.filter((p) => names.includes(p.name));
}
