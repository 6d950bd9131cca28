import { type parseModuleIsolated, unknownDefines } from '../frontend/index.js';
import type { ConstValue } from '../ir/nodes.js';
import type { Diagnostic } from '../report/diagnostic.js';

/**
 * `-D NAME=...` of a name the module never mentions (`-D NRNAKS=8`): a warning with the closest
 * constant, the same for every command that takes `-D`.
 */
export function defineTypos(
  module: ReturnType<typeof parseModuleIsolated>,
  defines: ReadonlyMap<string, ConstValue> | undefined,
): Diagnostic[] {
  if (!defines || defines.size === 0) return [];
  return unknownDefines(module.source.text, module.source.path, defines, module.constants);
}
