// The canonical printer's expressions and types (print.ts prints statements and modules; the
// canonical choices are listed there): minimal parentheses by Python precedence, known ops by
// their qualified names, keywords sorted.
import type { CallExpr, Expr, Keyword, Param, TypeExpr } from './nodes.js';
import { opByCanonical } from './ops.js';

// ---------------------------------------------------------------------------------------
// Expressions

/** Binding strength, Python's: higher binds tighter. */
const PREC = {
  tuple: 0,
  or: 1,
  and: 2,
  not: 3,
  cmp: 4,
  bor: 5,
  bxor: 6,
  band: 7,
  shift: 8,
  add: 9,
  mul: 10,
  unary: 11,
  pow: 12,
  primary: 14,
} as const;

export const BINARY_PREC: Record<string, number> = {
  or: PREC.or,
  and: PREC.and,
  '==': PREC.cmp,
  '!=': PREC.cmp,
  '<': PREC.cmp,
  '<=': PREC.cmp,
  '>': PREC.cmp,
  '>=': PREC.cmp,
  '|': PREC.bor,
  '^': PREC.bxor,
  '&': PREC.band,
  '<<': PREC.shift,
  '>>': PREC.shift,
  '+': PREC.add,
  '-': PREC.add,
  '*': PREC.mul,
  '/': PREC.mul,
  '//': PREC.mul,
  '%': PREC.mul,
  '**': PREC.pow,
};

function precOf(e: Expr): number {
  switch (e.kind) {
    case 'Binary':
      return BINARY_PREC[e.op]!;
    case 'Unary':
      return e.op === 'not' ? PREC.not : PREC.unary;
    case 'Int':
      return e.value < 0 || Object.is(e.value, -0) ? PREC.unary : PREC.primary;
    case 'Float':
      return e.text.startsWith('-') || e.value < 0 ? PREC.unary : PREC.primary;
    default:
      return PREC.primary;
  }
}

/** A Python string literal in double quotes. */
export function printString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** An integer in decimal digits (`String` would write 1e+21 for large values). */
function printInt(v: number): string {
  return Math.abs(v) < 1e21 || !Number.isInteger(v) ? String(v) : BigInt(v).toString();
}

function printFloat(e: { value: number; text: string }): string {
  if (e.text) return e.text;
  const s = String(e.value);
  return /[.eE]|Infinity|NaN/.test(s) ? s : `${s}.0`;
}

/**
 * The expression and type printer. `names`: where every name printed as an expression goes
 * (printModule finds the constants a program uses with it); null: nowhere. Its members are
 * bound functions (`elts.map(p.top)`).
 */
export class ExprPrinter {
  constructor(private readonly names: Set<string> | null = null) {}

  /** Prints `e` so that it parses back as `e` where an expression of strength `min` is expected. */
  private readonly expr = (e: Expr, min: number): string => {
    const s = this.top(e);
    return precOf(e) < min ? `(${s})` : s;
  };

  /** The canonical text of an expression (at top level: no enclosing parentheses). */
  readonly top = (e: Expr): string => {
    const { expr, top } = this;
    switch (e.kind) {
      case 'Name':
        this.names?.add(e.id);
        return e.id;
      case 'Int':
        return printInt(e.value);
      case 'Float':
        return printFloat(e);
      case 'Bool':
        return e.value ? 'True' : 'False';
      case 'None':
        return 'None';
      case 'Str':
        return e.fstring ? `f${printString(e.value)}` : printString(e.value);
      case 'List':
        return `[${e.elts.map(top).join(', ')}]`;
      case 'Tuple':
        return e.elts.length === 1 ? `(${top(e.elts[0]!)},)` : `(${e.elts.map(top).join(', ')})`;
      case 'Dict':
        return `{${e.entries.map((en) => `${top(en.key)}: ${top(en.value)}`).join(', ')}}`;
      case 'Attr': {
        // An integer literal needs parentheses before `.attr` (`1.real` would lex as a float).
        const v = e.value.kind === 'Int' ? `(${top(e.value)})` : expr(e.value, PREC.primary);
        return `${v}.${e.attr}`;
      }
      case 'Enum':
        return e.enum === 'DataType' ? `${e.module}.${e.member}` : `${e.module}.${e.enum}.${e.member}`;
      case 'Subscript':
        return `${expr(e.value, PREC.primary)}[${this.subscriptIndex(e.index)}]`;
      case 'Comp':
        return `[${top(e.elt)} for ${e.target.id} in ${expr(e.iter, PREC.or)}${e.conds.map((c) => ` if ${expr(c, PREC.or)}`).join('')}]`;
      case 'Slice':
        return `${e.lower ? top(e.lower) : ''}:${e.upper ? top(e.upper) : ''}`;
      case 'Unary': {
        if (e.op === 'not') return `not ${expr(e.operand, PREC.not)}`;
        // `- -x` keeps a space so that it can never lex as another token.
        const inner = expr(e.operand, PREC.unary);
        return inner.startsWith('-') || inner.startsWith('~') ? `${e.op} ${inner}` : `${e.op}${inner}`;
      }
      case 'Binary': {
        const p = BINARY_PREC[e.op]!;
        let lmin: number;
        let rmin: number;
        if (e.op === '**') {
          lmin = PREC.primary; // `(-a) ** b`, `(a ** b) ** c`
          rmin = PREC.unary; // `a ** -b`, `a ** b ** c`
        } else if (p === PREC.cmp) {
          lmin = p + 1; // never chain comparisons
          rmin = p + 1;
        } else {
          lmin = p;
          rmin = p + 1;
        }
        return `${expr(e.left, lmin)} ${e.op} ${expr(e.right, rmin)}`;
      }
      case 'Call':
        return this.call(e);
      case 'Submit': {
        const parts = [`self.${e.func}`, ...e.args.map(top), ...this.keywords(e.kwargs)];
        if (e.deps) parts.push(`deps=${this.depsText(e.deps)}`);
        return `pl.submit(${parts.join(', ')})`;
      }
    }
  };

  /** `x[a, b]` for a tuple index of two or more elements, else the index as an expression. */
  readonly subscriptIndex = (index: Expr): string => {
    if (index.kind === 'Tuple' && index.elts.length >= 2) return index.elts.map(this.top).join(', ');
    return this.top(index);
  };

  /** One element of a nested assignment target: a name or a parenthesised tuple of them. */
  readonly targetText = (e: Expr): string => {
    if (e.kind !== 'Tuple') return e.kind === 'Name' ? e.id : this.top(e);
    return e.elts.length === 1 ? `(${this.targetText(e.elts[0]!)},)` : `(${e.elts.map(this.targetText).join(', ')})`;
  };

  /** A `deps=` list; one that is a single comprehension prints as the comprehension itself. */
  readonly depsText = (deps: readonly Expr[]): string => {
    if (deps.length === 1 && deps[0]!.kind === 'Comp') return this.top(deps[0]!);
    return `[${deps.map(this.top).join(', ')}]`;
  };

  /** Keyword arguments `name=value`, sorted by name. */
  readonly keywords = (ks: readonly Keyword[]): string[] => {
    if (ks.length === 0) return [];
    return sortedKeywords(ks).map((k) => `${k.name}=${this.top(k.value)}`);
  };

  /** The callee text of a call: qualified print name for known ops, spelling otherwise. */
  readonly callee = (c: CallExpr['callee']): string => {
    switch (c.kind) {
      case 'op':
        return opByCanonical(c.name)?.printName ?? c.name;
      case 'self':
        return c.bare ? c.name : `self.${c.name}`;
      case 'other':
        return this.expr(c.expr, PREC.primary);
    }
  };

  private call(e: CallExpr): string {
    const { top, keywords } = this;
    // Keyword-only parameters (PyPTO's `*, op: NotifyOp`) sit in their position in the IR but
    // must be written as keywords.
    const spec = e.callee.kind === 'op' ? opByCanonical(e.callee.name) : undefined;
    const k = spec ? spec.params.findIndex((q) => q.kwOnly) : -1;
    if (spec && k >= 0 && e.args.length > k) {
      const kws = [
        ...e.kwargs,
        ...e.args
          .slice(k)
          .map((value, i) => ({ name: spec.params[k + i]?.name ?? `arg${k + i}`, value, start: value.start, end: value.end })),
      ];
      return `${this.callee(e.callee)}(${[...e.args.slice(0, k).map(top), ...keywords(kws)].join(', ')})`;
    }
    return `${this.callee(e.callee)}(${[...e.args.map(top), ...keywords(e.kwargs)].join(', ')})`;
  }

  /** A shape: as written when not a list literal (`SHAPE`), else `[d0, d1]`. */
  private shape(t: { shape: readonly Expr[]; shapeExpr?: Expr }): string {
    if (t.shapeExpr) return this.top(t.shapeExpr);
    return `[${t.shape.map(this.top).join(', ')}]`;
  }

  /** The canonical text of a type annotation. */
  readonly type = (t: TypeExpr): string => {
    const top = this.top;
    switch (t.kind) {
      case 'TensorType': {
        const head = t.distributed ? 'pld.DistributedTensor' : 'pl.Tensor';
        return `${head}[${[this.shape(t), top(t.dtype), ...t.extras.map(top)].join(', ')}]`;
      }
      case 'TileType':
        return `pl.Tile[${[this.shape(t), top(t.dtype), ...t.extras.map(top)].join(', ')}]`;
      case 'ScalarType':
        return `pl.Scalar[${top(t.dtype)}]`;
      case 'ArrayType':
        return `pl.Array[${top(t.size)}, ${top(t.dtype)}]`;
      case 'TupleType':
        return `tuple[${t.elts.map(this.type).join(', ')}]`;
      case 'OpaqueType':
        return top(t.expr);
    }
  };

  /** A parameter with its annotation (`x: pl.Out[...]`). */
  readonly param = (p: Param): string => {
    if (!p.type) return p.name;
    const ty = this.type(p.type);
    switch (p.direction) {
      case 'in':
        return `${p.name}: ${ty}`;
      case 'out':
        return `${p.name}: pl.Out[${ty}]`;
      case 'inout':
        return `${p.name}: pl.InOut[${ty}]`;
    }
  };
}

function sortedKeywords(ks: readonly Keyword[]): Keyword[] {
  return [...ks].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The printer that collects no names (it holds no state). */
const PLAIN = new ExprPrinter(null);

/** The canonical text of an expression (at top level: no enclosing parentheses). */
export function printExpr(e: Expr): string {
  return PLAIN.top(e);
}

/** The canonical text of a type annotation. */
export function printType(t: TypeExpr): string {
  return PLAIN.type(t);
}

/** The callee text of a call: qualified print name for known ops, spelling otherwise. */
export function calleeText(c: CallExpr['callee']): string {
  return PLAIN.callee(c);
}
