/** Test helpers: a compact s-expression view of IR nodes, and span text lookup. */

import { parseModule } from '../../src/frontend/index.js';
import type { Expr, Module, Span, Stmt, TypeExpr } from '../../src/ir/nodes.js';
import { type Diagnostic, DiagnosticError } from '../../src/report/diagnostic.js';

/** Compact, span-free rendering of an expression. */
export function ex(e: Expr | null | undefined): string {
  if (!e) return '_';
  switch (e.kind) {
    case 'Name':
      return e.id;
    case 'Int':
      return String(e.value);
    case 'Float':
      return e.text;
    case 'Bool':
      return e.value ? 'True' : 'False';
    case 'None':
      return 'None';
    case 'Str':
      return JSON.stringify(e.value);
    case 'List':
      return `[${e.elts.map(ex).join(', ')}]`;
    case 'Tuple':
      return `(${e.elts.map(ex).join(', ')}${e.elts.length === 1 ? ',' : ''})`;
    case 'Dict':
      return `{${e.entries.map((x) => `${ex(x.key)}: ${ex(x.value)}`).join(', ')}}`;
    case 'Attr':
      return `${ex(e.value)}.${e.attr}`;
    case 'Enum':
      return `<${e.module}.${e.enum}.${e.member}>`;
    case 'Subscript':
      return `${ex(e.value)}[${ex(e.index)}]`;
    case 'Comp':
      return `[${ex(e.elt)} for ${e.target.id} in ${ex(e.iter)}${e.conds.map((c) => ` if ${ex(c)}`).join('')}]`;
    case 'Slice':
      return `${e.lower ? ex(e.lower) : ''}:${e.upper ? ex(e.upper) : ''}`;
    case 'Unary':
      return `(${e.op} ${ex(e.operand)})`;
    case 'Binary':
      return `(${ex(e.left)} ${e.op} ${ex(e.right)})`;
    case 'Call': {
      const c = e.callee;
      const name = c.kind === 'op' ? (c.known ? `op:${c.name}` : `op?:${c.name}`) : c.kind === 'self' ? `self.${c.name}` : ex(c.expr);
      return `${name}(${[...e.args.map(ex), ...e.kwargs.map((k) => `${k.name}=${ex(k.value)}`)].join(', ')})`;
    }
    case 'Submit':
      return `submit ${e.func}(${[...e.args.map(ex), ...e.kwargs.map((k) => `${k.name}=${ex(k.value)}`)].join(', ')}) deps=${e.deps ? `[${e.deps.map(ex).join(', ')}]` : '_'}`;
  }
}

export function ty(t: TypeExpr | null | undefined): string {
  if (!t) return '_';
  switch (t.kind) {
    case 'TensorType':
      return `${t.distributed ? 'DTensor' : 'Tensor'}[${t.shapeExpr ? `${ex(t.shapeExpr)}=` : ''}[${t.shape.map(ex).join(', ')}], ${ex(t.dtype)}${t.extras.map((x) => `, ${ex(x)}`).join('')}]`;
    case 'TileType':
      return `Tile[[${t.shape.map(ex).join(', ')}], ${ex(t.dtype)}${t.extras.map((x) => `, ${ex(x)}`).join('')}]`;
    case 'ScalarType':
      return `Scalar[${ex(t.dtype)}]`;
    case 'ArrayType':
      return `Array[${ex(t.size)}, ${ex(t.dtype)}]`;
    case 'TupleType':
      return `tuple[${t.elts.map(ty).join(', ')}]`;
    case 'OpaqueType':
      return `?${ex(t.expr)}`;
  }
}

/** One line per statement, nested bodies indented by two spaces. */
export function st(body: readonly Stmt[], indent = ''): string[] {
  const out: string[] = [];
  for (const s of body) {
    switch (s.kind) {
      case 'Assign':
        out.push(
          `${indent}${s.tupleTarget ? `(${s.targets.map((t) => t.id).join(', ')})` : s.targets[0]!.id}${s.annotation ? `: ${ty(s.annotation)}` : ''} = ${ex(s.value)}`,
        );
        break;
      case 'ExprStmt':
        out.push(`${indent}${ex(s.value)}`);
        break;
      case 'Return':
        out.push(`${indent}return ${ex(s.value)}`);
        break;
      case 'Pass':
      case 'Break':
      case 'Continue':
        out.push(`${indent}${s.kind.toLowerCase()}`);
        break;
      case 'If':
        out.push(`${indent}${s.isElif ? 'elif' : 'if'} ${ex(s.cond)}:`, ...st(s.then, `${indent}  `));
        if (s.orelse.length > 0) {
          if (s.orelse.length === 1 && s.orelse[0]!.kind === 'If' && s.orelse[0]!.isElif) out.push(...st(s.orelse, indent));
          else out.push(`${indent}else:`, ...st(s.orelse, `${indent}  `));
        }
        break;
      case 'While':
        out.push(`${indent}while ${ex(s.cond)}:`, ...st(s.body, `${indent}  `));
        break;
      case 'For':
        out.push(
          `${indent}for[${s.loopKind}] ${s.target ? s.target.id : '_'}${s.iterArgs.length ? ` (${s.iterArgs.map((a) => a.id).join(', ')})` : ''}` +
            ` args=[${s.args.map(ex).join(', ')}]${s.kwargs.map((k) => ` ${k.name}=${ex(k.value)}`).join('')}` +
            `${s.initValues.length ? ` init=[${s.initValues.map(ex).join(', ')}]` : ''}${s.cond ? ` cond=${ex(s.cond)}` : ''}:`,
          ...st(s.body, `${indent}  `),
        );
        break;
      case 'Scope':
        out.push(
          `${indent}with[${s.scope}](${[...s.args.map(ex), ...s.kwargs.map((k) => `${k.name}=${ex(k.value)}`)].join(', ')})` +
            `${s.deps ? ` deps=[${s.deps.map(ex).join(', ')}]` : ''}${s.asName ? ` as ${s.asName.id}` : ''}:`,
          ...st(s.body, `${indent}  `),
        );
        break;
    }
  }
  return out;
}

export function text(m: Module, span: Span): string {
  return m.source.text.slice(span.start, span.end);
}

/** Parses a program body given as lines of a function body (4-space indented inside). */
export function parseBody(bodyLines: string, kind = 'InCore'): Module {
  const body = bodyLines
    .split('\n')
    .map((l) => (l.length > 0 ? `        ${l}` : l))
    .join('\n');
  const src = `import pypto.language as pl\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.${kind})\n    def f(self, x: pl.Scalar[pl.INT32]):\n${body}\n`;
  return parseModule(src, 'body.py');
}

export function bodyOf(m: Module): Stmt[] {
  return m.programs[0]!.functions[0]!.body;
}

/** The diagnostic a parse throws (fails the test when it does not throw). */
export function diagOf(f: () => unknown): Diagnostic {
  try {
    f();
  } catch (e) {
    if (e instanceof DiagnosticError) return e.diagnostics[0]!;
    throw e;
  }
  throw new Error('expected a DiagnosticError');
}

/** `line:col` of a diagnostic's location. */
export function where(d: Diagnostic): string {
  if (!d.location) return '-';
  const p = d.location.source.position(d.location.start);
  return `${p.line}:${p.col}`;
}
