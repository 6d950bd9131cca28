/**
 * Slice writes by target type, as PyPTO's parser lowers them (`ast_parser.py`, subscript
 * assignment): `dst[<slices>] = src` is `tensor.assemble` when `dst` is a Tensor (or a
 * DistributedTensor) and `tile.assemble` when it is a Tile. The frontend first builds every
 * slice write as `tensor.assemble`; this pass re-types those whose target is known to be a
 * tile: a parameter or an annotated assignment of type `pl.Tile[...]`, or a name bound to the
 * result of a tile-producing op (`pl.load`, `pl.tile.*` except store/read/write), in statement
 * order. A target of unknown type keeps `tensor.assemble` (PyPTO's default kind for tensors).
 */
import type { Param, Stmt, TypeExpr } from '../ir/nodes.js';
import { walkStmts } from '../ir/visit.js';

type Kind = 'tile' | 'tensor';

function kindOf(t: TypeExpr | null | undefined): Kind | null {
  if (!t) return null;
  if (t.kind === 'TileType') return 'tile';
  if (t.kind === 'TensorType') return 'tensor';
  return null;
}

const NOT_TILE_RESULTS: ReadonlySet<string> = new Set(['tile.store', 'tile.read', 'tile.write']);

/** Re-types the slice writes of `body` whose target is a tile to `tile.assemble` (in place). */
export function retypeSliceWrites(params: readonly Param[], body: Stmt[]): void {
  const kinds = new Map<string, Kind>();
  for (const p of params) {
    const k = kindOf(p.type);
    if (k) kinds.set(p.name, k);
  }
  walkStmts(body, (s) => {
    if (s.kind !== 'Assign') return;
    const t = s.targets[0];
    if (s.sliceIndex && t && s.value.kind === 'Call' && s.value.callee.kind === 'op' && s.value.callee.name === 'tensor.assemble') {
      if (kinds.get(t.id) === 'tile') s.value.callee = { kind: 'op', name: 'tile.assemble', known: true };
      return;
    }
    if (s.targets.length !== 1 || !t) return;
    const declared = kindOf(s.annotation);
    if (declared) {
      kinds.set(t.id, declared);
      return;
    }
    const v = s.value;
    if (v.kind === 'Call' && v.callee.kind === 'op' && v.callee.name.startsWith('tile.') && !NOT_TILE_RESULTS.has(v.callee.name)) {
      kinds.set(t.id, 'tile');
    } else if (v.kind === 'Call' && v.callee.kind === 'op' && v.callee.name === 'tile.store') {
      kinds.set(t.id, 'tensor');
    } else {
      kinds.delete(t.id);
    }
  });
}
