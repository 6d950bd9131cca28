// The `type_kind` symbol of a declared type (rules/schema.dl).
import { dotted } from '../ir/dotted.js';
import type { TypeExpr } from '../ir/nodes.js';

/** The type kind symbol of a declared type. */
export function typeKind(t: TypeExpr): string {
  switch (t.kind) {
    case 'TensorType':
      return t.distributed ? 'DistributedTensor' : 'Tensor';
    case 'TileType':
      return 'Tile';
    case 'ScalarType':
      return 'Scalar';
    case 'ArrayType':
      return 'Array';
    case 'TupleType':
      return 'Tuple';
    case 'OpaqueType':
      return BARE_TYPE_KINDS.get(dotted(t.expr) ?? '') ?? 'Opaque';
  }
}

/** A bare type annotation (`q: pl.Tensor`, no shape): PyPTO still types the value by it. */
const BARE_TYPE_KINDS: ReadonlyMap<string, string> = new Map([
  ['pl.Tensor', 'Tensor'],
  ['pl.Tile', 'Tile'],
  ['pl.Scalar', 'Scalar'],
  ['pl.DistributedTensor', 'DistributedTensor'],
  ['pld.DistributedTensor', 'DistributedTensor'],
]);
