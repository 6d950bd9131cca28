// Parses one rule file into a ParsedFile: Ohm match, semantics to AST, disjunctions expanded.
import type { IterationNode, Node, NonterminalNode, TerminalNode } from 'ohm-js';
import { type Diagnostic, DiagnosticError, errorAt, type Location } from '../../report/diagnostic.js';
import type { SourceText } from '../../report/source.js';
import {
  type AggOp,
  type ArithOp,
  type Atom,
  type Clause,
  type CmpOp,
  type FunctorName,
  type Literal,
  operands,
  type ParsedFile,
  type Term,
} from './ast.js';
import { takeFastFacts, unescapeString } from './fast-facts.js';
import { datalogGrammar } from './grammar.js';
import { INT64_MAX, INT64_MIN } from './int64.js';
import { flattenDeepGroups, treeDepth } from './nesting.js';
import { syntaxError } from './syntax-error.js';

/** A conjunction whose elements may still be nested disjunctions (before DNF expansion). */
type RawConj = Array<Literal | RawDisj>;
interface RawDisj {
  kind: 'disj';
  alts: RawConj[];
  loc: Location;
}

const MAX_EXPANSION = 1024;

/** The state of one parse: its source, the problems found so far, the terms parsed ahead. */
interface ParseCtx {
  readonly src: SourceText;
  /** Where the text the grammar is matching starts in the source (it may read a piece of it). */
  base: number;
  readonly problems: Diagnostic[];
  /** Terms parsed ahead of the file (deep parentheses), by placeholder name. */
  readonly nested: Map<string, Term>;
}
/** How deep a term's tree may be: a 1,000-term sum is 999 deep; deeper trees would overflow later recursive passes. */
export const MAX_TERM_DEPTH = 1200;

function loc(ctx: ParseCtx, n: Node): Location {
  return { source: ctx.src, start: ctx.base + n.source.startIdx, end: ctx.base + n.source.endIdx };
}

/** The rule language's semantics for one parse (its actions report into ctx). */
function semanticsFor(ctx: ParseCtx) {
  const s = datalogGrammar().createSemantics();
  s.addOperation<unknown>('ast', {
    Program(items: IterationNode, _end: Node) {
      const out: ParsedFile = { decls: [], types: [], io: [], clauses: [], includes: [] };
      for (const item of items.children) {
        const r = item.ast() as { tag: string; value: unknown };
        switch (r.tag) {
          case 'include':
            out.includes.push(r.value as ParsedFile['includes'][number]);
            break;
          case 'decl':
            out.decls.push(r.value as ParsedFile['decls'][number]);
            break;
          case 'type':
            out.types.push(r.value as ParsedFile['types'][number]);
            break;
          case 'io':
            out.io.push(...(r.value as ParsedFile['io']));
            break;
          case 'clauses':
            out.clauses.push(...(r.value as Clause[]));
            break;
        }
      }
      return out;
    },
    Include(_kw: Node, str: Node) {
      if (str.sourceString.startsWith('<'))
        return { tag: 'include', value: { path: str.sourceString.slice(1, -1), system: true, loc: loc(ctx, this) } };
      return { tag: 'include', value: { path: (str.ast() as { value: string }).value, system: false, loc: loc(ctx, this) } };
    },
    Decl(_kw: Node, name: Node, _o: Node, attrs: Node, _c: Node) {
      return {
        tag: 'decl',
        value: {
          name: name.sourceString,
          attrs: attrs.asIteration().children.map((a) => a.ast()),
          loc: loc(ctx, this),
          nameLoc: loc(ctx, name),
        },
      };
    },
    Attr(name: Node, _c: Node, type: Node) {
      return { name: name.sourceString, type: type.sourceString, loc: loc(ctx, this) };
    },
    TypeDecl(_kw: Node, name: Node, _op: Node, base: Node) {
      return { tag: 'type', value: { name: name.sourceString, base: base.sourceString, loc: loc(ctx, this), nameLoc: loc(ctx, name) } };
    },
    IoDirective(kw: Node, names: Node) {
      const directive = kw.sourceString.slice(1) as 'input' | 'output' | 'printsize';
      return {
        tag: 'io',
        value: names.asIteration().children.map((n) => ({ directive, rel: n.sourceString, loc: loc(ctx, n) })),
      };
    },
    Clause_rule(head: Node, _arrow: Node, body: Node, _dot: Node) {
      const atom = head.ast() as Atom;
      const l = loc(ctx, this);
      const bodies = expand(ctx, body.ast() as RawDisj, l);
      return { tag: 'clauses', value: bodies.map((b) => ({ head: atom, body: b, loc: l, isFact: false })) };
    },
    Clause_fact(head: Node, _dot: Node) {
      return { tag: 'clauses', value: [{ head: head.ast() as Atom, body: [], loc: loc(ctx, this), isFact: true }] };
    },
    Disjunction(list: Node) {
      return { kind: 'disj', alts: list.asIteration().children.map((c) => c.ast() as RawConj), loc: loc(ctx, this) } satisfies RawDisj;
    },
    Conjunction(list: Node) {
      return list.asIteration().children.map((c) => c.ast() as Literal | RawDisj);
    },
    Literal_negconstraint(_bang: Node, c: Node) {
      const l = c.ast() as Literal & { kind: 'cmp' };
      return { ...l, op: l.op === 'match' ? '!match' : '!contains', loc: loc(ctx, this) };
    },
    Literal_constraint(c: Node) {
      return c.ast();
    },
    Constraint(kw: Node, _o: Node, sub: Node, _c: Node, s: Node, _p: Node) {
      return {
        kind: 'cmp',
        op: kw.sourceString as 'contains' | 'match',
        left: sub.ast() as Term,
        right: s.ast() as Term,
        loc: loc(ctx, this),
      };
    },
    Literal_neg(_bang: Node, atom: Node) {
      return { kind: 'neg', atom: atom.ast() as Atom, loc: loc(ctx, this) };
    },
    Literal_paren(_o: Node, d: Node, _c: Node) {
      return d.ast();
    },
    Literal_pos(atom: Node) {
      return { kind: 'atom', atom: atom.ast() as Atom, loc: loc(ctx, this) };
    },
    Literal_cmp(l: Node, op: Node, r: Node) {
      return { kind: 'cmp', op: op.sourceString as CmpOp, left: l.ast() as Term, right: r.ast() as Term, loc: loc(ctx, this) };
    },
    Atom(name: Node, _o: Node, args: Node, _c: Node) {
      return {
        rel: name.sourceString,
        args: args.asIteration().children.map((a) => a.ast() as Term),
        loc: loc(ctx, this),
        nameLoc: loc(ctx, name),
      } satisfies Atom;
    },
    Term(first: Node, ops: IterationNode, rest: IterationNode) {
      const terms = [first.ast() as Term, ...rest.children.map((r) => r.ast() as Term)];
      return chain(
        ctx,
        terms,
        ops.children.map((o) => o.sourceString as ArithOp),
      );
    },
    Unary(minus: IterationNode, arg: Node) {
      let a = arg.ast() as Term;
      if (minus.children.length === 0) return a;
      for (let i = minus.children.length - 1; i >= 0; i--) {
        const l: Location = { source: ctx.src, start: ctx.base + minus.children[i]!.source.startIdx, end: ctx.base + this.source.endIdx };
        // `-9223372036854775808` is a literal; `-(-9223372036854775808)` wraps at run time, as in Soufflé.
        const wraps = a.kind === 'num' && a.value === INT64_MIN;
        a = a.kind === 'num' && !wraps ? { kind: 'num', value: -a.value, loc: l } : { kind: 'neg', arg: a, loc: l };
      }
      return a;
    },
    Primary_paren(_o: Node, t: Node, _c: Node) {
      return t.ast();
    },
    Functor(name: Node, _o: Node, args: Node, _c: Node) {
      return {
        kind: 'call',
        fn: name.sourceString as FunctorName,
        args: args.asIteration().children.map((a) => a.ast() as Term),
        loc: loc(ctx, this),
        nameLoc: loc(ctx, name),
      };
    },
    Aggregate_count(_kw: Node, _c: Node, body: Node) {
      return { kind: 'agg', op: 'count', target: null, body: aggBody(ctx, body), loc: loc(ctx, this) };
    },
    Aggregate_other(kw: Node, target: Node, _c: Node, body: Node) {
      return { kind: 'agg', op: kw.sourceString as AggOp, target: target.ast() as Term, body: aggBody(ctx, body), loc: loc(ctx, this) };
    },
    AggBody_braces(_o: Node, conj: Node, _c: Node) {
      return conj.ast();
    },
    AggBody_atom(atom: Node) {
      return [{ kind: 'atom', atom: atom.ast() as Atom, loc: loc(ctx, this) }];
    },
    number(_digits: Node) {
      return { kind: 'num', value: BigInt(this.sourceString), loc: loc(ctx, this) };
    },
    string(_o: Node, _chars: Node, _c: Node) {
      return { kind: 'str', value: unescapeString(this.sourceString.slice(1, -1)), loc: loc(ctx, this) };
    },
    wildcard(_u: Node) {
      return { kind: 'wildcard', loc: loc(ctx, this) };
    },
    variable(_id: Node) {
      const sub = ctx.nested.get(this.sourceString);
      if (sub !== undefined) return sub;
      return { kind: 'var', name: this.sourceString, loc: loc(ctx, this) };
    },
    plainVariable(_id: Node) {
      const sub = ctx.nested.get(this.sourceString);
      if (sub !== undefined) return sub;
      return { kind: 'var', name: this.sourceString, loc: loc(ctx, this) };
    },
    _terminal(this: TerminalNode) {
      return this.sourceString;
    },
    _nonterminal(this: NonterminalNode, ...children: Node[]) {
      if (children.length === 1) return children[0]!.ast();
      throw new Error(`no semantic action for ${this.ctorName}`);
    },
  });
  return s;
}

/** Left-associative tree of an operator chain, `*` `/` `%` binding tighter than `+` `-` (no recursion). */
function chain(ctx: ParseCtx, terms: Term[], ops: ArithOp[]): Term {
  const mk = (l: Term, op: ArithOp, r: Term): Term => ({
    kind: 'bin',
    op,
    left: l,
    right: r,
    loc: { source: ctx.src, start: l.loc.start, end: r.loc.end },
  });
  let sum: Term | undefined;
  let sumOp: ArithOp = '+';
  let prod = terms[0]!;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const next = terms[i + 1]!;
    if (op === '*' || op === '/' || op === '%') prod = mk(prod, op, next);
    else {
      sum = sum === undefined ? prod : mk(sum, sumOp, prod);
      sumOp = op;
      prod = next;
    }
  }
  return sum === undefined ? prod : mk(sum, sumOp, prod);
}

/** The literals of an aggregate body; a disjunction there is reported (Soufflé has none). */
function aggBody(ctx: ParseCtx, body: Node): Literal[] {
  const raw = body.ast() as RawConj;
  const out: Literal[] = [];
  const flatten = (items: RawConj): void => {
    for (const it of items) {
      if ('alts' in it) {
        if (it.alts.length > 1) {
          ctx.problems.push(
            errorAt(ctx.src, it.loc.start, it.loc.end, 'syntax-error', 'a disjunction `;` is not allowed inside an aggregate body', {
              fix: 'write one aggregate per alternative, or derive the alternatives into a helper relation first.',
            }),
          );
        }
        flatten(it.alts[0]!);
      } else out.push(it);
    }
  };
  flatten(raw);
  return out;
}

/** Disjunctive normal form of a body: one literal list per alternative. */
function expand(ctx: ParseCtx, d: RawDisj, at: Location): Literal[][] {
  const conjs = (c: RawConj): Literal[][] => {
    let acc: Literal[][] = [[]];
    for (const item of c) {
      const alts = 'alts' in item ? expand(ctx, item, at) : [[item]];
      const next: Literal[][] = [];
      for (const a of acc) for (const b of alts) next.push([...a, ...b]);
      acc = next;
      if (acc.length > MAX_EXPANSION) {
        ctx.problems.push(
          errorAt(ctx.src, at.start, at.end, 'syntax-error', `this rule expands to more than ${MAX_EXPANSION} alternatives`, {
            fix: 'split the disjunctions into helper relations.',
          }),
        );
        return acc.slice(0, 1);
      }
    }
    return acc;
  };
  return d.alts.flatMap(conjs);
}

/** The sub-terms of a term, aggregate bodies included. */
function subTerms(t: Term): readonly Term[] {
  if (t.kind !== 'agg') return operands(t);
  const out: Term[] = t.target ? [t.target] : [];
  for (const l of t.body) out.push(...literalTerms(l));
  return out;
}

function literalTerms(l: Literal): readonly Term[] {
  return l.kind === 'cmp' ? [l.left, l.right] : l.atom.args;
}

/** Out-of-range numbers and too deep terms, found without recursion. */
function checkTerms(ctx: ParseCtx, roots: readonly Term[]): void {
  for (const root of roots) {
    const { depth, deepest } = treeDepth(root, subTerms);
    if (depth > MAX_TERM_DEPTH) {
      ctx.problems.push(
        errorAt(
          deepest.loc.source,
          deepest.loc.start,
          deepest.loc.end,
          'nesting-too-deep',
          `this term is nested ${depth} levels deep; ptolog accepts ${MAX_TERM_DEPTH}`,
          {
            fix: 'split the expression: compute parts in helper relations or variables (`X = ...`).',
          },
        ),
      );
      continue;
    }
    const stack = [root];
    while (stack.length > 0) {
      const t = stack.pop()!;
      if (t.kind === 'num' && (t.value < INT64_MIN || t.value > INT64_MAX)) {
        ctx.problems.push(
          errorAt(
            t.loc.source,
            t.loc.start,
            t.loc.end,
            'number-out-of-range',
            `the number ${t.value} does not fit in a 64-bit signed integer`,
            {
              fix: `use a value between ${INT64_MIN} and ${INT64_MAX}.`,
            },
          ),
        );
      }
      stack.push(...subTerms(t));
    }
  }
}

/** Parses a term alone (a group's content, ctx.base its offset), for deep parentheses, with the file's semantics; undefined when it is none. */
function parseNestedTerm(semantics: ReturnType<typeof semanticsFor>, content: string): Term | undefined {
  const m = datalogGrammar().match(content, 'Term');
  if (m.failed()) return undefined;
  return semantics(m).ast() as Term;
}

/** The clauses of both lists in the order they are written (each list is in that order already). */
function mergeByStart(a: readonly Clause[], b: readonly Clause[]): Clause[] {
  const out: Clause[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.loc.start < b[j]!.loc.start)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

/** Parses one source text; throws DiagnosticError with a located syntax error. */
export function parseFile(source: SourceText, options: { grammarOnly?: boolean; minFactRun?: number } = {}): ParsedFile {
  const ctx: ParseCtx = { src: source, base: 0, problems: [], nested: new Map() };
  const semantics = semanticsFor(ctx);
  // One-line ground facts (most of the op catalog) are read without the grammar, which reads the
  // pieces between them; `grammarOnly` reads everything through it (the reference the fast path
  // is tested against, and what gives a syntax error its message).
  const fast = options.grammarOnly
    ? { clauses: [], rest: [[0, source.text.length] as [number, number]] }
    : takeFastFacts(source, options.minFactRun);
  try {
    const flat = flattenDeepGroups(
      source.text,
      (content, offset) => {
        ctx.base = offset;
        return parseNestedTerm(semantics, content);
      },
      ctx.nested,
    );
    if (flat.problem) {
      const p = flat.problem;
      throw new DiagnosticError([
        errorAt(source, p.start, p.end, 'nesting-too-deep', p.message, {
          fix: 'split the rule: derive the inner parts into helper relations.',
        }),
      ]);
    }
    const file: ParsedFile = { decls: [], types: [], io: [], clauses: [], includes: [] };
    for (const [from, to] of fast.rest) {
      const m = datalogGrammar().match(flat.text.slice(from, to));
      if (m.failed()) {
        if (!options.grammarOnly) return parseFile(source, { grammarOnly: true });
        throw new DiagnosticError([syntaxError(source, m)]);
      }
      ctx.base = from;
      const piece = semantics(m).ast() as ParsedFile;
      file.decls.push(...piece.decls);
      file.types.push(...piece.types);
      file.io.push(...piece.io);
      file.clauses.push(...piece.clauses);
      file.includes.push(...piece.includes);
    }
    if (fast.clauses.length > 0) file.clauses = mergeByStart(fast.clauses, file.clauses);
    for (const c of file.clauses) checkTerms(ctx, [...c.head.args, ...c.body.flatMap(literalTerms)]);
    if (ctx.problems.length > 0) throw new DiagnosticError(ctx.problems);
    return file;
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    // A last resort: the chunking above keeps every known construct well inside the stack.
    throw new DiagnosticError([
      errorAt(source, 0, Math.min(1, source.text.length), 'nesting-too-deep', 'this rule file nests too deeply for the parser', {
        fix: 'split deeply nested rules into helper relations.',
      }),
    ]);
  }
}
