/**
 * The grammar (pypto.ohm) and its semantics: CST → IR. Spans are mapped back to the original
 * text through the current chunk's OffsetMap (see layout.ts). Binary operators arrive flat and
 * are given Python precedence here.
 */

import { readFileSync } from 'node:fs';
import * as ohm from 'ohm-js';
import type { ConstValue, DictExpr, Expr, NameExpr, Span, Stmt, StrExpr, TupleExpr } from '../ir/nodes.js';
import {
  type ArgDesc,
  type BuildCtx,
  type Clause,
  type DecoratorDesc,
  type DefHeadDesc,
  type Head,
  makeAssign,
  makeAttr,
  makeCall,
  makeFor,
  makeIf,
  makeWhile,
  makeWith,
  type RawParam,
  type Reporter,
  resolveImported,
} from './build.js';
import type { OffsetMap } from './layout.js';
import { decodeString, isFString, parseNumber } from './literals.js';
import { type OperandTok, precedence } from './precedence.js';

interface Compiled {
  grammar: ohm.Grammar;
  semantics: ohm.Semantics;
}

/**
 * The grammar and its semantics are compiled on first use: compiling takes about half a second,
 * and a module the hand-written parser reads whole (hand-stmt.ts) never needs them.
 */
let compiled: Compiled | null = null;

function compile(): Compiled {
  if (compiled === null) {
    const grammar = ohm.grammar(readFileSync(new URL('./pypto.ohm', import.meta.url), 'utf8'));
    // (The Unicode properties of names: see xidStart in pypto.ohm.)
    // (ohm-js's typings give UnicodeChar no constructor argument; it takes the property's name.)
    const UnicodeChar = ohm.pexprs.UnicodeChar as unknown as new (property: string) => ohm.PExpr;
    grammar.rules.xidStart!.body = new UnicodeChar('XID_Start');
    grammar.rules.xidContinue!.body = new UnicodeChar('XID_Continue');
    // biome-ignore lint/suspicious/noExplicitAny: one operation returns every IR node kind
    const semantics = grammar.createSemantics().addOperation<any>('ir', actions);
    compiled = { grammar, semantics };
  }
  return compiled;
}

/** The DSL's Ohm grammar (pypto.ohm), compiled on first use. */
export function pyptoGrammar(): ohm.Grammar {
  return compile().grammar;
}

/** Mutable context of the chunk being converted (the semantics is shared, parsing is synchronous). */
export interface SemState {
  map: OffsetMap;
  report: Reporter;
  constants: ReadonlyMap<string, ConstValue>;
  /** The module's PyPTO imports: local name → canonical (`pyl` → `pl`, `Tensor` → `pl.Tensor`). */
  names?: ReadonlyMap<string, string>;
  /** Names of the module's JIT kernels: a call of one is a call of a program function. */
  jitFuncs?: ReadonlySet<string>;
  /** A lone `...` is allowed (the whole body of an external kernel / abstract SubWorker). */
  ellipsisOk?: boolean;
  /** Expressions parsed ahead of the text (deeply nested items, see nesting.ts) by their offset in the chunk. */
  holes?: ReadonlyMap<number, Expr>;
  /** Offset of the matched text in the chunk (for `holes`). */
  holeBase?: number;
}

let st: SemState;
const bctx: BuildCtx = {
  get report() {
    return st.report;
  },
  get constants() {
    return st.constants;
  },
  get jitFuncs() {
    return st.jitFuncs;
  },
} as BuildCtx;

/** A name read through the module's imports: `pyl` → `pl`, `Tensor` → `pl.Tensor`. */
function resolveName(id: string, span: Span): Expr {
  return resolveImported(st.names, id, span);
}

type N = ohm.Node;

/** The name an `ident` node spells, as Python reads it: NFKC-normalised beyond ASCII (PEP 3131). */
function nameOf(n: N): string {
  const s = n.sourceString;
  return /[^\x00-\x7f]/.test(s) ? s.normalize('NFKC') : s;
}

function sp(n: N): Span {
  return { start: st.map.start(n.source.startIdx), end: st.map.end(n.source.endIdx) };
}

/** The original-text offset node `n` starts at. */
function spS(n: N): number {
  return st.map.start(n.source.startIdx);
}

/** The original-text offset node `n` ends at. */
function spE(n: N): number {
  return st.map.end(n.source.endIdx);
}

// biome-ignore lint/suspicious/noExplicitAny: Ohm's semantic actions are untyped; callers name the IR type they expect
function ir<T = any>(n: N): T {
  return n['ir']();
}

// biome-ignore lint/suspicious/noExplicitAny: as ir()
function opt<T = any>(n: N): T | null {
  return n.numChildren > 0 ? ir<T>(n.children[0]!) : null;
}

/** A list of expressions written with commas: one without a trailing comma is itself, else a Tuple. */
function exprList(items: Expr[], trailingComma: boolean, span: Span): Expr {
  if (items.length === 1 && !trailingComma) return items[0]!;
  const t: TupleExpr = { kind: 'Tuple', elts: items, start: span.start, end: span.end };
  return t;
}

// ---------------------------------------------------------------------------------------
// Semantics

/** Reports "<what> is/are not supported inside a @pl.program" at `n` (plural when `what` names a kind of thing). */
function unsupportedHere(n: N, what: string, plural = /s$|s \(/.test(what)): never {
  return st.report.unsupported(sp(n), `${what} ${plural ? 'are' : 'is'} not supported inside a @pl.program`);
}

/** The case name of an alternative node (`BracketBody_comp`). */
function caseOf(n: N): string {
  return n.ctorName.includes('_') || n.numChildren !== 1 ? n.ctorName : n.children[0]!.ctorName;
}

const UNSUPPORTED_STMT: Record<string, string> = {
  del: "'del' statements",
  global: "'global' statements",
  nonlocal: "'nonlocal' statements",
  assert: "'assert' statements",
  raise: "'raise' statements",
  import: 'imports',
  from: 'imports',
  try: "'try' statements",
  except: "'except' clauses",
  finally: "'finally' clauses",
  def: 'nested function definitions',
  class: 'nested classes',
  async: "'async' statements",
  '@': 'decorated definitions',
};

// biome-ignore lint/suspicious/noExplicitAny: one operation returns every IR node kind
const actions: ohm.ActionDict<any> = {
  // ------------------------------------------------------------------ start rules
  Chunk(stmts, _end) {
    return stmts.children.flatMap((c) => ir<Stmt[]>(c));
  },
  FuncHeader(decos, head, rest, _end) {
    return { decorators: decos.children.map((d) => ir(d)), head: ir(head), inline: ir(rest) };
  },
  ProgramHeader(decos, head, _nl, _end) {
    return { decorators: decos.children.map((d) => ir(d)), name: ir(head) };
  },
  ClauseHeader(head, rest, _end) {
    return { head: ir(head), inline: ir(rest) };
  },
  ClauseRest_block(_nl) {
    return null;
  },
  ClauseRest_inline(stmts) {
    return ir(stmts);
  },
  ConstRhs(e, _end) {
    return ir(e);
  },
  ExprItem(e, _end) {
    return ir(e);
  },

  // ------------------------------------------------------------------ headers
  Decorator(_at, e, _nl) {
    const d: DecoratorDesc = { expr: ir(e), span: sp(this) };
    return d;
  },
  ClassHead(_kw, name, _bases, _colon) {
    return nameOf(name);
  },
  DefHead(_kw, name, lp, params, rp, ret, _colon) {
    const s = sp(this);
    const ps: RawParam[] = params.numChildren > 0 ? ir(params.children[0]!) : [];
    const d: DefHeadDesc = {
      name: nameOf(name),
      params: ps,
      paramsSpan: { start: sp(lp).start, end: sp(rp).end },
      returns: opt(ret),
      start: s.start,
      span: s,
    };
    return d;
  },
  ReturnAnn(_arrow, e) {
    return ir(e);
  },
  ParamList(first, _c, rest, _t) {
    return seq(first, rest);
  },
  Param_dstar(_s, _n) {
    return unsupportedHere(this, "'**' parameters");
  },
  Param_star(_s, _n) {
    return unsupportedHere(this, "'*' parameters");
  },
  Param_slash(_s) {
    return unsupportedHere(this, "'/' parameters");
  },
  Param_plain(name, ann, def) {
    if (def.numChildren > 0) unsupportedHere(def, 'default parameter values');
    const p: RawParam = { name: nameOf(name), nameSpan: sp(name), annotation: opt(ann), span: sp(this) };
    return p;
  },
  ParamAnn(_c, e) {
    return ir(e);
  },

  // ------------------------------------------------------------------ statements
  Stmt(s) {
    return ir(s);
  },
  SimpleStmts(first, _s, rest, _t, _nl) {
    return seq(first, rest);
  },
  SmallStmt_return(_kw, e) {
    return { kind: 'Return', value: opt(e), start: spS(this), end: spE(this) };
  },
  SmallStmt_pass(_kw) {
    return { kind: 'Pass', start: spS(this), end: spE(this) };
  },
  SmallStmt_break(_kw) {
    return { kind: 'Break', start: spS(this), end: spE(this) };
  },
  SmallStmt_continue(_kw) {
    return { kind: 'Continue', start: spS(this), end: spE(this) };
  },
  SmallStmt_unsupported(kw, _rest) {
    const word = kw.sourceString.trim();
    return st.report.unsupported(sp(this), `${UNSUPPORTED_STMT[word] ?? `'${word}' statements`} are not supported inside a @pl.program`);
  },
  SmallStmt_expr(e, tail) {
    if (tail.numChildren === 0) return { kind: 'ExprStmt', value: ir(e), start: spS(this), end: spE(this) };
    const t = tail.children[0]!;
    const c = t.ctorName === 'SmallTail' ? t.children[0]! : t;
    switch (c.ctorName) {
      case 'SmallTail_annassign': {
        const [, ann, rhs] = c.children as [N, N, N];
        if (rhs.numChildren === 0) return unsupportedHere(this, 'an annotation without a value');
        return makeAssign(bctx, ir(e), ir(rhs.children[0]!), ir(ann), sp(this));
      }
      case 'SmallTail_assign': {
        const rhss = c.children[0]!;
        if (rhss.numChildren > 1) return unsupportedHere(this, 'chained assignments (a = b = c)');
        return makeAssign(bctx, ir(e), ir(rhss.children[0]!), null, sp(this));
      }
      default: {
        const op = c.children[0]!.sourceString;
        return st.report.unsupported(sp(this), `augmented assignment '${op}' is not supported; write x = x ${op.slice(0, -1)} ...`);
      }
    }
  },
  AssignRhs(_eq, e) {
    return ir(e);
  },

  CompoundStmt(s) {
    return [ir(s)];
  },
  IfStmt(head, suite, elifs, els) {
    const clauses: Clause[] = [{ head: ir(head), body: ir(suite) }, ...elifs.children.map((c) => ir<Clause>(c))];
    if (els.numChildren > 0) clauses.push(ir(els.children[0]!));
    return makeIf(bctx, clauses);
  },
  ElifClause(head, suite) {
    return { head: ir(head), body: ir(suite) };
  },
  ElseClause(head, suite) {
    return { head: ir(head), body: ir(suite) };
  },
  WhileStmt(head, suite, els) {
    return makeWhile(bctx, { head: ir(head), body: ir(suite) }, opt(els));
  },
  ForStmt(head, suite, els) {
    return makeFor(bctx, { head: ir(head), body: ir(suite) }, opt(els));
  },
  WithStmt(head, suite) {
    return makeWith(bctx, { head: ir(head), body: ir(suite) });
  },
  IfHead(_kw, cond, _c) {
    const span = sp(this);
    const h: Head = { kind: 'if', cond: ir(cond), start: span.start, span };
    return h;
  },
  ElifHead(_kw, cond, _c) {
    const span = sp(this);
    const h: Head = { kind: 'elif', cond: ir(cond), start: span.start, span };
    return h;
  },
  ElseHead(_kw, _c) {
    const span = sp(this);
    const h: Head = { kind: 'else', start: span.start, span };
    return h;
  },
  WhileHead(_kw, cond, _c) {
    const span = sp(this);
    const h: Head = { kind: 'while', cond: ir(cond), start: span.start, span };
    return h;
  },
  ForHead(_kw, target, _in, iter, _c) {
    const span = sp(this);
    const h: Head = { kind: 'for', target: ir(target), iter: ir(iter), start: span.start, span };
    return h;
  },
  WithHead(_kw, first, _cs, rest, _c) {
    const span = sp(this);
    const h: Head = { kind: 'with', items: seq(first, rest), start: span.start, span };
    return h;
  },
  WithItem(e, as) {
    return { expr: ir(e), asName: opt(as), span: sp(this) };
  },
  WithAs(_kw, t) {
    const e: Expr = ir(t);
    if (e.kind !== 'Name') return st.report.unsupported(e, "the target of 'as' must be a single name");
    return e;
  },
  UnsupportedCompound(kw, _rest, _nl, _block) {
    const word = kw.sourceString.trim();
    return st.report.unsupported(
      { start: sp(kw).start, end: sp(_rest).end },
      `${UNSUPPORTED_STMT[word] ?? `'${word}' statements`} are not supported inside a @pl.program`,
    );
  },
  Suite(s) {
    return ir(s);
  },
  Block(_nl, _indent, stmts, _dedent) {
    return stmts.children.flatMap((c) => ir<Stmt[]>(c));
  },

  TargetList(first, _c, rest, trail) {
    return exprList(seq(first, rest), trail.numChildren > 0, sp(this));
  },
  TargetItem_name(id) {
    const n: NameExpr = { kind: 'Name', id: nameOf(id), start: spS(this), end: spE(this) };
    return n;
  },
  TargetItem_paren(_l, inner, _r) {
    return parenTargets(this, inner);
  },
  TargetItem_bracket(_l, inner, _r) {
    return parenTargets(this, inner);
  },

  // ------------------------------------------------------------------ expressions
  ExprList(first, _c, rest, trail) {
    return exprList(seq(first, rest), trail.numChildren > 0, sp(this));
  },
  Expr(first, ops, rest, tail) {
    if (tail.numChildren > 0) {
      const t = tail.children[0]!;
      const kind = t.ctorName === 'ExprTail' ? t.children[0]!.ctorName : t.ctorName;
      if (kind === 'ExprTail_ternary') return unsupportedHere(this, 'conditional expressions (x if c else y)');
      return unsupportedHere(this, "':=' assignment expressions");
    }
    return binaryChain(first, ops, rest);
  },
  Disjunction(first, ops, rest) {
    return binaryChain(first, ops, rest);
  },
  Operand(prefixes, head, trailers) {
    let e: Expr = ir(head);
    const hs = sp(head);
    let end = hs.end;
    for (const t of trailers.children) {
      const ts = sp(t);
      end = ts.end;
      const span = { start: hs.start, end };
      const inner = t.children[0]!;
      switch (inner.ctorName) {
        case 'TrailerAttr':
          e = makeAttr(e, nameOf(inner.children[1]!), span);
          break;
        case 'TrailerCall': {
          const argsNode = inner.children[1]!;
          const args: ArgDesc[] = argsNode.numChildren > 0 ? ir(argsNode.children[0]!) : [];
          e = makeCall(bctx, e, args, span);
          break;
        }
        default: {
          const index: Expr = ir(inner.children[1]!);
          e = { kind: 'Subscript', value: e, index, start: span.start, end: span.end };
        }
      }
    }
    const tok: OperandTok = {
      prefixes: prefixes.children.map((p) => ({ op: p.sourceString.trim(), span: sp(p) })),
      primary: e,
      start: hs.start,
      end,
    };
    return tok;
  },
  ident(_a, _b) {
    return resolveName(nameOf(this), sp(this));
  },
  ArgList(first, _c, rest, _t) {
    return seq(first, rest);
  },
  Arg_keyword(name, _eq, e) {
    const a: ArgDesc = { name: nameOf(name), value: ir(e), start: spS(this), end: spE(this) };
    return a;
  },
  Arg_star(_s, s2, _e) {
    return unsupportedHere(this, s2.numChildren > 0 ? "'**' arguments" : "'*' arguments");
  },
  Arg_positional(e, comp) {
    if (comp.numChildren > 0) return unsupportedHere(this, 'generator expressions');
    const a: ArgDesc = { name: null, value: ir(e), start: spS(this), end: spE(this) };
    return a;
  },
  SubscriptList(first, _c, rest, trail) {
    return exprList(seq(first, rest), trail.numChildren > 0, sp(this));
  },
  SubItem_slice(lower, _c, upper, step) {
    const st0 = step.children[0];
    if (st0 && st0.children[1]!.numChildren > 0) {
      return st.report.unsupported(
        sp(st0),
        "a slice step is not supported in a tensor or tile subscript; write 'start:stop' without a step",
      );
    }
    return { kind: 'Slice', lower: opt(lower), upper: opt(upper), start: spS(this), end: spE(this) };
  },
  SubItem_expr(e) {
    return ir(e);
  },

  number(_a, _b) {
    return parseNumber(this.sourceString, sp(this), st.report);
  },
  Atom_paren(_l, body) {
    const c = body.children[0]!;
    if (caseOf(body) === 'ParenBody_paren' && c.children[1]!.numChildren > 0) return unsupportedHere(this, 'generator expressions');
    const r: { elts: Expr[] } | Expr = ir(body);
    if ('kind' in r) return r;
    return { kind: 'Tuple', elts: r.elts, start: spS(this), end: spE(this) };
  },
  ParenBody_unit(_r) {
    return { elts: [] };
  },
  ParenBody_paren(e, comp, _r) {
    if (comp.numChildren > 0) return unsupportedHere(this, 'generator expressions');
    return ir(e);
  },
  ParenBody_tuple(first, _c, rest, _t, _r) {
    return { elts: seq(first, rest) };
  },
  Atom_bracket(_l, body) {
    if (caseOf(body) === 'BracketBody_comp') return comprehension(this, body.children[0]!);
    const elts: Expr[] = ir(body);
    return { kind: 'List', elts, start: spS(this), end: spE(this) };
  },
  BracketBody_empty(_r) {
    return [];
  },
  BracketBody_comp(_e, _c, _r) {
    return unsupportedHere(this, 'list comprehensions');
  },
  BracketBody_list(first, _c, rest, _t, _r) {
    return seq(first, rest);
  },
  Atom_brace(_l, body) {
    const c = caseOf(body);
    if (c === 'BraceBody_dictcomp') return unsupportedHere(this, 'dict comprehensions');
    if (c === 'BraceBody_setcomp') return unsupportedHere(this, 'set comprehensions');
    if (c === 'BraceBody_set') return unsupportedHere(this, 'set literals');
    const entries: DictExpr['entries'] = ir(body);
    const d: DictExpr = { kind: 'Dict', entries, start: spS(this), end: spE(this) };
    return d;
  },
  BraceBody_empty(_r) {
    return [];
  },
  BraceBody_dictcomp(_e, _c, _r) {
    return unsupportedHere(this, 'dict comprehensions');
  },
  BraceBody_dict(first, _c, rest, _t, _r) {
    return seq(first, rest);
  },
  BraceBody_setcomp(_e, _c, _r) {
    return unsupportedHere(this, 'set comprehensions');
  },
  BraceBody_set(_f, _c, _rest, _t, _r) {
    return unsupportedHere(this, 'set literals');
  },
  Atom_str(parts) {
    let value = '';
    let f = false;
    for (const p of parts.children) {
      if (isFString(p.sourceString)) f = true;
      value += decodeString(p.sourceString, sp(p), st.report);
    }
    const e: StrExpr = { kind: 'Str', value, start: spS(this), end: spE(this) };
    if (f) e.fstring = true;
    return e;
  },
  Atom_true(_k) {
    return { kind: 'Bool', value: true, start: spS(this), end: spE(this) };
  },
  Atom_false(_k) {
    return { kind: 'Bool', value: false, start: spS(this), end: spE(this) };
  },
  Atom_none(_k) {
    return { kind: 'None', start: spS(this), end: spE(this) };
  },
  Atom_hole(_h) {
    const e = st.holes?.get((st.holeBase ?? 0) + this.source.startIdx);
    if (!e) throw new Error('internal: a nesting placeholder without its expression');
    return e;
  },
  Atom_ellipsis(_e) {
    if (st.ellipsisOk) return { kind: 'Name', id: '...', start: spS(this), end: spE(this) };
    return st.report.unsupported(
      sp(this),
      "'...' is only read as the whole body of a function (an external kernel or an abstract SubWorker); write pass for an empty block",
    );
  },
  Atom_yield(_k, _e) {
    return unsupportedHere(this, "'yield' (use pl.yield_)");
  },
  Atom_lambda(_k, _p, _c, _e) {
    return unsupportedHere(this, 'lambda');
  },
  DictEntry_pair(k, _c, v) {
    return { key: ir(k), value: ir(v) };
  },
  DictEntry_spread(_s, _e) {
    return unsupportedHere(this, "'**' in a dict literal");
  },
};

/**
 * `[elt for x in iter if c]` (`comp` is the BracketBody_comp node): a CompExpr, with PyPTO's
 * rejections (`ast_parser.py`, `_unroll_deps_comprehension`). Where it may appear (only in
 * `deps=`) is checked when the function is built.
 */
function comprehension(node: N, comp: N): Expr {
  const [eltNode, forNode] = comp.children as [N, N];
  const clauses = forNode.children[0]!.children;
  if (clauses.length !== 1) {
    return st.report.syntax(
      sp(node),
      "a deps= comprehension supports a single 'for' clause; inline the inner generator(s) or write a single flat 'for ... in ...'",
    );
  }
  const [asyncKw, , target, , iter, ifs] = clauses[0]!.children as [N, N, N, N, N, N];
  if (asyncKw.numChildren > 0) return st.report.syntax(sp(node), "a deps= comprehension cannot be 'async for'");
  const t: Expr = ir(target);
  if (t.kind !== 'Name') {
    return st.report.syntax(t, "a deps= comprehension target must be a single name; use 'for i in ...', not 'for i, j in ...'");
  }
  const conds: Expr[] = ifs.children.map((c) => ir<Expr>(c.children[1]!));
  return { kind: 'Comp', elt: ir(eltNode), target: t, iter: ir(iter), conds, start: spS(node), end: spE(node) };
}

// biome-ignore lint/suspicious/noExplicitAny: as ir()
function seq<T = any>(first: N, rest: N): T[] {
  const out: T[] = [ir<T>(first)];
  for (const c of rest.children) out.push(ir<T>(c));
  return out;
}

function binaryChain(first: N, ops: N, rest: N): Expr {
  const f: OperandTok = ir(first);
  if (ops.numChildren === 0 && f.prefixes.length === 0) return f.primary;
  const operands: OperandTok[] = [f, ...rest.children.map((c) => ir<OperandTok>(c))];
  const opToks = ops.children.map((o) => ({ op: o.sourceString.replace(/\s+/g, ' '), span: sp(o) }));
  return precedence(operands, opToks, st.report);
}

function parenTargets(node: N, inner: N): Expr {
  if (inner.numChildren === 0) return { kind: 'Tuple', elts: [], start: spS(node), end: spE(node) };
  const e: Expr = ir(inner.children[0]!);
  if (e.kind === 'Tuple') return { kind: 'Tuple', elts: e.elts, start: spS(node), end: spE(node) };
  return e;
}

/** Converts a successful match with the given chunk state. */
export function convert<T>(match: ohm.MatchResult, state: SemState): T {
  const prev = st;
  st = state;
  try {
    return compile().semantics(match)['ir']() as T;
  } finally {
    st = prev;
  }
}
