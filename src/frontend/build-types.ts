/**
 * IR builders of types: tensor, tile and scalar annotations, and a parameter's type and
 * direction.
 *
 * Every builder is given a `Reporter` that throws a located `unsupported-construct` (or
 * `syntax-error`) diagnostic.
 */

import { dotted } from '../ir/dotted.js';
import type { Direction, Expr, Span, TypeExpr } from '../ir/nodes.js';

import type { BuildCtx } from './build-expr.js';

function typeItems(index: Expr): Expr[] {
  return index.kind === 'Tuple' ? index.elts : [index];
}

function shapeOf(ctx: BuildCtx, e: Expr): { shape: Expr[]; shapeExpr?: Expr } {
  if (e.kind === 'List' || e.kind === 'Tuple') return { shape: e.elts };
  // A shape written as a name of a list constant (`pl.Tensor[SHAPE, pl.FP32]`).
  if (e.kind === 'Name') {
    const v = ctx.constants.get(e.id);
    if (Array.isArray(v) && v.every((x) => typeof x === 'number')) {
      return {
        shape: (v as number[]).map((n) => ({ kind: 'Int', value: n, start: e.start, end: e.end }) as Expr),
        shapeExpr: e,
      };
    }
  }
  return { shape: [], shapeExpr: e };
}

/** Converts an annotation expression into a TypeExpr (unknown forms become OpaqueType). */
export function toType(ctx: BuildCtx, e: Expr): TypeExpr {
  const span: Span = e;
  if (e.kind === 'Subscript') {
    const name = dotted(e.value);
    const items = typeItems(e.index);
    switch (name) {
      case 'pl.Tensor':
      case 'pld.DistributedTensor':
      case 'pl.DistributedTensor':
      case 'pl.Tile': {
        if (items.length < 2) break;
        const { shape, shapeExpr } = shapeOf(ctx, items[0]!);
        const extras = items.slice(2).filter((x) => !(x.kind === 'Str' && /^\s*window_buffer\s*=/.test(x.value)));
        if (name === 'pl.Tile') {
          return shapeExpr
            ? { kind: 'TileType', shape, shapeExpr, dtype: items[1]!, extras, start: span.start, end: span.end }
            : { kind: 'TileType', shape, dtype: items[1]!, extras, start: span.start, end: span.end };
        }
        const distributed = name !== 'pl.Tensor';
        return shapeExpr
          ? { kind: 'TensorType', distributed, shape, shapeExpr, dtype: items[1]!, extras, start: span.start, end: span.end }
          : { kind: 'TensorType', distributed, shape, dtype: items[1]!, extras, start: span.start, end: span.end };
      }
      case 'pl.Scalar':
        if (items.length === 1) return { kind: 'ScalarType', dtype: items[0]!, start: span.start, end: span.end };
        break;
      case 'pl.Array':
        if (items.length === 2) return { kind: 'ArrayType', size: items[0]!, dtype: items[1]!, start: span.start, end: span.end };
        break;
      case 'tuple':
      case 'Tuple':
      case 'pl.Tuple':
        return { kind: 'TupleType', elts: items.map((x) => toType(ctx, x)), start: span.start, end: span.end };
      default:
        break;
    }
  }
  return { kind: 'OpaqueType', expr: e, start: span.start, end: span.end };
}

/** A parameter annotation: `pl.Out[T]` / `pl.InOut[T]` give the direction, T the type. */
export function paramType(ctx: BuildCtx, e: Expr): { type: TypeExpr; direction: Direction } {
  if (e.kind === 'Subscript') {
    const name = dotted(e.value);
    if (name === 'pl.Out' || name === 'pl.InOut') {
      return { type: toType(ctx, e.index), direction: name === 'pl.Out' ? 'out' : 'inout' };
    }
    if (name === 'pl.In') return { type: toType(ctx, e.index), direction: 'in' };
  }
  return { type: toType(ctx, e), direction: 'in' };
}

// ---------------------------------------------------------------------------------------
// Statements
