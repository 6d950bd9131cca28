/**
 * The canonical printer (`ptolog fmt`): IR → PyPTO DSL text in the style of PyPTO's python
 * printer. Two programs are the same program exactly when their canonical forms are equal,
 * and the output re-parses to a structurally equal IR (see `equal.ts`).
 *
 * Canonical choices (each a deterministic function of the IR, never of the source text):
 * - Module: `import pypto.language as pl`, then `import pypto.language.distributed as pld`
 *   when the programs use `pld`, then the module constants the programs mention (in module
 *   order, with their values after `-D` overrides), then each program; top-level items are
 *   separated by two blank lines, functions within a class by one. No program: no output.
 * - Decorators: `@pl.function(type=pl.FunctionType.K, ...)`; `Opaque` omits `type=` and is
 *   bare `@pl.function` when it has no other keywords.
 * - Signature: `self` then the parameters on one line when the `def` line fits in 100
 *   columns, else one parameter per line with a trailing comma and `) -> R:` on its own line.
 * - Bodies: the docstring (as one double-quoted string) then `pl.func_attr({...})` first in a
 *   function body, its lines merged into one (PyPTO's printer writes the attributes so); a body
 *   holding only a docstring prints no `pass`; `pl.cond(c)` first in an SSA while body, then
 *   declarations (`pl.set_cache_policy`: ops the catalog marks `frontend_declaration`, stable
 *   among themselves), then the other statements; an empty body prints `pass`.
 * - A program with constants of its own (bound in its builder function or test method) that it
 *   uses prints inside `def build_<Name>():` holding those bindings, then `return <Name>`.
 * - Calls: known ops by their qualified `printName`, positional arguments (keyword-only
 *   parameters of the op, e.g. notify's `op`, as keywords), then keywords
 *   sorted by name (code-point order); `deps=` is always last (submit, scopes), `init_values=`
 *   last in loop headers, `mode=` first in a manual scope. Unknown ops keep their spelling.
 * - `return a, b` for a returned tuple of two or more values (other tuples keep parentheses).
 * - `tids = pl.array.update_element(tids, i, t)` prints as the element write `tids[i] = t`;
 *   `else:` holding exactly one `if` prints as `elif`.
 * - Range-like loops (`range`, `parallel`, `unroll`, `pipeline`) print `(stop)` when start is
 *   literal 0 and step literal 1, `(start, stop)` when step is literal 1, else all three.
 * - Scopes: `pl.scope(mode=pl.ScopeMode.MANUAL)` (manual), `pl.scope()` (auto), `pl.at`,
 *   `pl.spmd`, `pl.cluster`.
 * - Expressions are minimally parenthesised by Python precedence (comparisons never chain:
 *   a comparison operand of a comparison is parenthesised); strings use double quotes;
 *   floats keep their source text; enum values print symbolically (`pld.NotifyOp.AtomicAdd`,
 *   data types as `pl.FP32`); integers print in decimal (`0x10` → `16`); a tuple subscript
 *   prints bare (`x[i, j]`); shapes keep their symbolic spelling (`[1, N]`, `SHAPE`).
 * - Comments: a node's leading comments (see `frontend/comments.ts`: those before it and on its
 *   own lines) print above it, one per line at its indentation, as written; the file's header
 *   comments (before any code) print first, then a blank line. PyPTO's printer does the same.
 * - `pl.dynamic` dimensions the programs use print as `N = pl.dynamic("N")` before the constants.
 * - Not kept (not in the IR): class and module docstrings, blank lines, line continuations, any
 *   Python outside `@pl.program` classes (imports, tests, builder functions: their programs
 *   are printed at top level), `"window_buffer=..."` type elements.
 *
 * Output is built as an array of lines joined once, so printing is linear in program size.
 */
import type { Diagnostic } from '../report/diagnostic.js';
import { mergedAttrs } from './func-attrs.js';
import type { AssignStmt, Commented, ConstValue, Expr, ForStmt, FunctionDef, IfStmt, Module, Program, ScopeStmt, Stmt } from './nodes.js';
import { ExprPrinter, printString } from './print-expr.js';
import { hoistDecls } from './visit.js';

const INDENT = '    ';
/** The `def` line is split one parameter per line when it would be longer than this. */
export const MAX_DEF_LINE = 100;

// ---------------------------------------------------------------------------------------
// Statements

function isInt(e: Expr | undefined, v: number): boolean {
  return e !== undefined && e.kind === 'Int' && e.value === v;
}

/** The element-write sugar applies: `x = pl.array.update_element(x, i, t)`. */
function elementWrite(s: AssignStmt): { name: string; index: Expr; value: Expr } | null {
  if (s.targets.length !== 1 || s.tupleTarget || s.annotation) return null;
  const v = s.value;
  if (v.kind !== 'Call' || v.callee.kind !== 'op' || v.callee.name !== 'array.update_element') return null;
  if (v.args.length !== 3 || v.kwargs.length !== 0) return null;
  const arr = v.args[0]!;
  const name = s.targets[0]!.id;
  if (arr.kind !== 'Name' || arr.id !== name) return null;
  return { name, index: v.args[1]!, value: v.args[2]! };
}

const LOOP_CALL: Record<ForStmt['loopKind'], string> = {
  range: 'pl.range',
  parallel: 'pl.parallel',
  unroll: 'pl.unroll',
  pipeline: 'pl.pipeline',
  spmd: 'pl.spmd',
  while: 'pl.while_',
  split_aiv: 'pl.split_aiv',
};

function loopArgs(s: ForStmt): Expr[] {
  const a = s.args;
  if (s.loopKind === 'spmd' || s.loopKind === 'while' || s.loopKind === 'split_aiv' || a.length !== 3) return a;
  if (!isInt(a[2], 1)) return a;
  return isInt(a[0], 0) ? [a[1]!] : [a[0]!, a[1]!];
}

function tupleOf(x: ExprPrinter, elts: readonly Expr[]): string {
  return elts.length === 1 ? `(${x.top(elts[0]!)},)` : `(${elts.map(x.top).join(', ')})`;
}

function forHeader(x: ExprPrinter, s: ForStmt): string {
  const parts = [...loopArgs(s).map(x.top), ...x.keywords(s.kwargs)];
  if (s.initValues.length > 0) parts.push(`init_values=${tupleOf(x, s.initValues)}`);
  const iter = `${LOOP_CALL[s.loopKind]}(${parts.join(', ')})`;
  let target: string;
  if (s.iterArgs.length > 0) {
    const carried = tupleOf(x, s.iterArgs);
    target = s.target ? `${s.target.id}, ${carried}` : carried;
  } else {
    target = s.target ? s.target.id : '_';
  }
  return `for ${target} in ${iter}:`;
}

function scopeHeader(x: ExprPrinter, s: ScopeStmt): string {
  const parts: string[] = [];
  let callee: string;
  let kws = s.kwargs;
  switch (s.scope) {
    case 'manual':
      callee = 'pl.scope';
      parts.push('mode=pl.ScopeMode.MANUAL');
      kws = kws.filter((k) => k.name !== 'mode');
      break;
    case 'auto':
      callee = 'pl.scope';
      kws = kws.filter((k) => k.name !== 'mode');
      break;
    case 'at':
      callee = 'pl.at';
      break;
    case 'spmd':
      callee = 'pl.spmd';
      break;
    case 'cluster':
      callee = 'pl.cluster';
      break;
  }
  parts.unshift(...s.args.map(x.top));
  parts.push(...x.keywords(kws));
  if (s.deps) parts.push(`deps=${x.depsText(s.deps)}`);
  const as = s.asName ? ` as ${s.asName.id}` : '';
  return `with ${callee}(${parts.join(', ')})${as}:`;
}

/** The indentation of the first depths, built once (read-only). */
const INDENTS: readonly string[] = Array.from({ length: 16 }, (_, d) => INDENT.repeat(d));
function indent(depth: number): string {
  return INDENTS[depth] ?? INDENT.repeat(depth);
}

class Printer {
  readonly lines: string[] = [];
  /** The expression printer (with printModule's sink of the names printed as expressions). */
  readonly x: ExprPrinter;

  constructor(names: Set<string> | null = null) {
    this.x = new ExprPrinter(names);
  }

  line(depth: number, text: string): void {
    this.lines.push(indent(depth) + text);
  }

  /** The node's kept comments, one line each, at `depth`. */
  comments(depth: number, node: Commented): void {
    if (node.comments) for (const c of node.comments) this.line(depth, c);
  }

  /** A statement body; `lead` statements (func_attr, pl.cond) come first. */
  body(stmts: readonly Stmt[], depth: number, lead: string[] = []): void {
    for (const l of lead) this.line(depth, l);
    const ordered = hoistDecls(stmts);
    if (ordered.length === 0 && lead.length === 0) {
      this.line(depth, 'pass');
      return;
    }
    for (const s of ordered) this.stmt(s, depth);
  }

  stmt(s: Stmt, depth: number): void {
    this.comments(depth, s);
    switch (s.kind) {
      case 'Assign': {
        if (s.sliceIndex && s.value.kind === 'Call' && s.value.args[1]) {
          this.line(depth, `${s.targets[0]!.id}[${this.x.subscriptIndex(s.sliceIndex)}] = ${this.x.top(s.value.args[1])}`);
          return;
        }
        const ew = elementWrite(s);
        if (ew) {
          this.line(depth, `${ew.name}[${this.x.subscriptIndex(ew.index)}] = ${this.x.top(ew.value)}`);
          return;
        }
        let lhs: string;
        if (s.targetPattern) lhs = s.targetPattern.elts.map(this.x.targetText).join(', ');
        else if (s.targets.length === 1 && !s.tupleTarget) lhs = s.targets[0]!.id;
        else if (s.targets.length === 1) lhs = `(${s.targets[0]!.id},)`;
        else lhs = s.targets.map((t) => t.id).join(', ');
        if (s.annotation) lhs += `: ${this.x.type(s.annotation)}`;
        this.line(depth, `${lhs} = ${this.x.top(s.value)}`);
        return;
      }
      case 'ExprStmt':
        this.line(depth, this.x.top(s.value));
        return;
      case 'Return': {
        const v = s.value;
        if (!v) this.line(depth, 'return');
        else if (v.kind === 'Tuple' && v.elts.length >= 2) this.line(depth, `return ${v.elts.map(this.x.top).join(', ')}`);
        else this.line(depth, `return ${this.x.top(v)}`);
        return;
      }
      case 'Pass':
        this.line(depth, 'pass');
        return;
      case 'Break':
        this.line(depth, 'break');
        return;
      case 'Continue':
        this.line(depth, 'continue');
        return;
      case 'If':
        this.ifStmt(s, depth, 'if');
        return;
      case 'While':
        this.line(depth, `while ${this.x.top(s.cond)}:`);
        this.body(s.body, depth + 1);
        return;
      case 'For':
        this.line(depth, forHeader(this.x, s));
        this.body(s.body, depth + 1, s.loopKind === 'while' && s.cond ? [`pl.cond(${this.x.top(s.cond)})`] : []);
        return;
      case 'Scope':
        this.line(depth, scopeHeader(this.x, s));
        this.body(s.body, depth + 1);
        return;
    }
  }

  ifStmt(s: IfStmt, depth: number, keyword: 'if' | 'elif'): void {
    if (keyword === 'elif') this.comments(depth, s);
    this.line(depth, `${keyword} ${this.x.top(s.cond)}:`);
    this.body(s.then, depth + 1);
    if (s.orelse.length === 1 && s.orelse[0]!.kind === 'If') {
      this.ifStmt(s.orelse[0]!, depth, 'elif');
    } else if (s.orelse.length > 0) {
      this.line(depth, 'else:');
      this.body(s.orelse, depth + 1);
    }
  }

  func(f: FunctionDef, depth: number): void {
    this.comments(depth, f);
    const kws = this.x.keywords(f.decoratorKwargs);
    if (f.jit) {
      this.line(depth, `@${this.x.top(f.jit)}`);
    } else if (f.funcKind === 'Opaque') {
      this.line(depth, kws.length === 0 ? '@pl.function' : `@pl.function(${kws.join(', ')})`);
    } else {
      this.line(depth, `@pl.function(${[`type=pl.FunctionType.${f.funcKind}`, ...kws].join(', ')})`);
    }
    const params = f.jit || f.noSelf ? f.params.map(this.x.param) : ['self', ...f.params.map(this.x.param)];
    const ret = f.returns ? ` -> ${this.x.type(f.returns)}` : '';
    const oneLine = `def ${f.name}(${params.join(', ')})${ret}:`;
    if (INDENT.length * depth + oneLine.length <= MAX_DEF_LINE) {
      this.line(depth, oneLine);
    } else {
      this.line(depth, `def ${f.name}(`);
      for (const p of params) this.line(depth + 1, `${p},`);
      this.line(depth, `)${ret}:`);
    }
    const merged = mergedAttrs(f);
    const attrs = merged ? [`pl.func_attr(${this.x.top(merged)})`] : [];
    if (f.hostSource) {
      // A HOST SubWorker's plain-Python body, as written (its docstring, if any, included).
      for (const l of attrs) this.line(depth + 1, l);
      for (const l of f.hostSource) this.lines.push(l === '' ? '' : indent(depth + 1) + l);
      return;
    }
    const lead: string[] = [];
    if (f.docstring !== null && f.docstring !== undefined) lead.push(printString(f.docstring));
    lead.push(...attrs);
    if (f.external) this.body([], depth + 1, [...lead, '...']);
    else this.body(f.body, depth + 1, lead);
  }

  program(p: Program, depth: number): void {
    if (p.jit) {
      // The module-level JIT kernels: top-level functions separated by two blank lines.
      p.functions.forEach((f, i) => {
        if (i > 0) this.lines.push('', '');
        this.func(f, depth);
      });
      return;
    }
    this.comments(depth, p);
    this.line(depth, '@pl.program');
    this.line(depth, `class ${p.name}:`);
    if (p.functions.length === 0) this.line(depth + 1, 'pass');
    p.functions.forEach((f, i) => {
      if (i > 0) this.lines.push('');
      this.func(f, depth + 1);
    });
  }
}

/** Canonical text of one statement (with its nested body) at indentation `depth`, ending in a newline. */
export function printStmt(s: Stmt, depth = 0): string {
  const pr = new Printer();
  pr.stmt(s, depth);
  return `${pr.lines.join('\n')}\n`;
}

/** Canonical text of a statement body at indentation `depth` (`pass` when empty). */
export function printBody(body: readonly Stmt[], depth = 0): string {
  const pr = new Printer();
  pr.body(body, depth);
  return `${pr.lines.join('\n')}\n`;
}

/** Canonical text of a function (decorator, signature, body) at indentation `depth`. */
export function printFunction(f: FunctionDef, depth = 1): string {
  const pr = new Printer();
  pr.func(f, depth);
  return `${pr.lines.join('\n')}\n`;
}

/** Canonical text of one `@pl.program` class, without imports or constants. */
export function printProgram(p: Program): string {
  return programText(p, null);
}

/** printProgram; every name printed as an expression goes into `names` (null: nowhere). */
function programText(p: Program, names: Set<string> | null): string {
  const pr = new Printer(names);
  pr.program(p, 0);
  return `${pr.lines.join('\n')}\n`;
}

/** A module constant's value in Python syntax. */
export function printConst(v: ConstValue): string {
  return Array.isArray(v) ? `[${v.map(printConst).join(', ')}]` : String(v);
}

/** True when the canonical text of the programs refers to the `pld` module. */
function usesPld(text: string): boolean {
  return /(^|[^\w.])pld\./m.test(text);
}

/**
 * The canonical form of a module (what `ptolog fmt` prints for a file): imports, the module
 * constants the programs mention, and every program in order. Empty when there is no program.
 */
export function printModule(mod: Pick<Module, 'constants' | 'programs' | 'headerComments' | 'dynamics'>): string {
  const m = mod.programs.some((p) => p.imported) ? { ...mod, programs: mod.programs.filter((p) => !p.imported) } : mod;
  if (m.programs.length === 0) return '';
  const used = new Set<string>();
  const texts: string[] = [];
  for (const p of m.programs) {
    const mine = new Set<string>();
    const text = programText(p, mine);
    const locals: string[] = [];
    for (const name of mine) {
      const v = p.constants?.get(name);
      const g = m.constants.get(name);
      if (v !== undefined && (g === undefined || printConst(g) !== printConst(v))) locals.push(`${name} = ${printConst(v)}`);
      else used.add(name);
    }
    if (locals.length === 0) {
      texts.push(text);
    } else {
      // Bound in the builder function or test method around it: printed inside one.
      const pr = new Printer();
      const name = p.jit ? p.functions[p.functions.length - 1]!.name : p.name;
      pr.line(0, `def build_${name}():`);
      for (const l of locals) pr.line(1, l);
      pr.lines.push('');
      pr.program(p, 1);
      pr.lines.push('');
      pr.line(1, `return ${name}`);
      texts.push(`${pr.lines.join('\n')}\n`);
    }
  }
  const body = texts.join('\n\n');
  const header = ['import pypto.language as pl'];
  if (usesPld(body)) header.push('import pypto.language.distributed as pld');
  const consts: string[] = [];
  for (const [name, text] of m.dynamics ?? []) {
    if (used.has(name) && !m.constants.has(name)) consts.push(`${name} = pl.dynamic(${printString(text)})`);
  }
  for (const [name, value] of m.constants) {
    if (used.has(name)) consts.push(`${name} = ${printConst(value)}`);
  }
  let out = m.headerComments ? `${m.headerComments.join('\n')}\n\n` : '';
  out += `${header.join('\n')}\n`;
  if (consts.length > 0) out += `\n${consts.join('\n')}\n`;
  return `${out}\n\n${body}`;
}

/**
 * Located errors for functions `printModule` cannot print as Python binds them: two functions of
 * one program with the same name (two `@pl.jit.inline def helper` in the branches of an `if` /
 * `else`, of which Python binds the one of the branch taken; two methods of one class, of which
 * the last wins). fmt leaves such a file out rather than hoist both to one level.
 */
export function unprintableFunctions(m: Pick<Module, 'programs' | 'source'>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of m.programs) {
    if (p.imported) continue;
    const seen = new Map<string, number>();
    for (const f of p.functions) {
      const first = seen.get(f.name);
      if (first === undefined) {
        seen.set(f.name, f.start);
        continue;
      }
      const line = m.source.position(first).line;
      out.push({
        severity: 'error',
        code: 'unsupported-construct',
        message: `fmt cannot print this function: '${f.name}' is also defined on line ${line} (in another branch, or earlier in the class), and Python binds only one of them; printed at one level, the last would replace the other`,
        location: { source: m.source, start: f.start, end: f.start },
        fix: 'give the two functions different names, or keep one definition',
      });
    }
  }
  return out;
}

export { calleeText, printExpr, printString, printType } from './print-expr.js';
