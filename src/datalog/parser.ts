// Parses one rule file into a ParsedFile: Ohm match, semantics to AST, disjunctions expanded.
import type { Node, NonterminalNode, TerminalNode, IterationNode } from 'ohm-js';
import { DiagnosticError, errorAt, type Diagnostic, type Location } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import { operands, type Atom, type Clause, type Literal, type ParsedFile, type Term, type ArithOp, type CmpOp, type AggOp, type FunctorName } from './ast.js';
import { datalogGrammar } from './grammar.js';
import { syntaxError } from './syntax-error.js';

/** A conjunction whose elements may still be nested disjunctions (before DNF expansion). */
type RawConj = Array<Literal | RawDisj>;
interface RawDisj {
  kind: 'disj';
  alts: RawConj[];
  loc: Location;
}

const MAX_EXPANSION = 1024;
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

let src: SourceText;
let problems: Diagnostic[] = [];

function loc(n: Node): Location {
  return { source: src, start: n.source.startIdx, end: n.source.endIdx };
}

function unescapeString(body: string): string {
  return body.replace(/\\(.)/g, (_m, c: string) => {
    switch (c) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      default:
        return c;
    }
  });
}

let semantics: ReturnType<ReturnType<typeof datalogGrammar>['createSemantics']> | undefined;

function getSemantics() {
  if (semantics) return semantics;
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
      return { tag: 'include', value: { path: (str.ast() as { value: string }).value, loc: loc(this) } };
    },
    Decl(_kw: Node, name: Node, _o: Node, attrs: Node, _c: Node) {
      return {
        tag: 'decl',
        value: {
          name: name.sourceString,
          attrs: attrs.asIteration().children.map((a) => a.ast()),
          loc: loc(this),
          nameLoc: loc(name),
        },
      };
    },
    Attr(name: Node, _c: Node, type: Node) {
      return { name: name.sourceString, type: type.sourceString, loc: loc(this) };
    },
    TypeDecl(_kw: Node, name: Node, _op: Node, base: Node) {
      return { tag: 'type', value: { name: name.sourceString, base: base.sourceString, loc: loc(this), nameLoc: loc(name) } };
    },
    IoDirective(kw: Node, names: Node) {
      const directive = kw.sourceString.slice(1) as 'input' | 'output' | 'printsize';
      return {
        tag: 'io',
        value: names.asIteration().children.map((n) => ({ directive, rel: n.sourceString, loc: loc(n) })),
      };
    },
    Clause_rule(head: Node, _arrow: Node, body: Node, _dot: Node) {
      const atom = head.ast() as Atom;
      const l = loc(this);
      const bodies = expand(body.ast() as RawDisj, l);
      return { tag: 'clauses', value: bodies.map((b) => ({ head: atom, body: b, loc: l, isFact: false })) };
    },
    Clause_fact(head: Node, _dot: Node) {
      return { tag: 'clauses', value: [{ head: head.ast() as Atom, body: [], loc: loc(this), isFact: true }] };
    },
    Disjunction(list: Node) {
      return { kind: 'disj', alts: list.asIteration().children.map((c) => c.ast() as RawConj), loc: loc(this) } satisfies RawDisj;
    },
    Conjunction(list: Node) {
      return list.asIteration().children.map((c) => c.ast() as Literal | RawDisj);
    },
    Literal_negconstraint(_bang: Node, c: Node) {
      const l = c.ast() as Literal & { kind: 'cmp' };
      return { ...l, op: '!contains', loc: loc(this) };
    },
    Literal_constraint(c: Node) {
      return c.ast();
    },
    Constraint(_kw: Node, _o: Node, sub: Node, _c: Node, s: Node, _p: Node) {
      return { kind: 'cmp', op: 'contains', left: sub.ast() as Term, right: s.ast() as Term, loc: loc(this) };
    },
    Literal_neg(_bang: Node, atom: Node) {
      return { kind: 'neg', atom: atom.ast() as Atom, loc: loc(this) };
    },
    Literal_paren(_o: Node, d: Node, _c: Node) {
      return d.ast();
    },
    Literal_pos(atom: Node) {
      return { kind: 'atom', atom: atom.ast() as Atom, loc: loc(this) };
    },
    Literal_cmp(l: Node, op: Node, r: Node) {
      return { kind: 'cmp', op: op.sourceString as CmpOp, left: l.ast() as Term, right: r.ast() as Term, loc: loc(this) };
    },
    Atom(name: Node, _o: Node, args: Node, _c: Node) {
      return {
        rel: name.sourceString,
        args: args.asIteration().children.map((a) => a.ast() as Term),
        loc: loc(this),
        nameLoc: loc(name),
      } satisfies Atom;
    },
    Term_bin(l: Node, op: Node, r: Node) {
      return { kind: 'bin', op: op.sourceString as ArithOp, left: l.ast() as Term, right: r.ast() as Term, loc: loc(this) };
    },
    Factor_bin(l: Node, op: Node, r: Node) {
      return { kind: 'bin', op: op.sourceString as ArithOp, left: l.ast() as Term, right: r.ast() as Term, loc: loc(this) };
    },
    Unary_neg(_m: Node, arg: Node) {
      const a = arg.ast() as Term;
      if (a.kind === 'num') return { kind: 'num', value: 0 - a.value, loc: loc(this) };
      return { kind: 'neg', arg: a, loc: loc(this) };
    },
    Primary_paren(_o: Node, t: Node, _c: Node) {
      return t.ast();
    },
    Functor(name: Node, _o: Node, args: Node, _c: Node) {
      return {
        kind: 'call',
        fn: name.sourceString as FunctorName,
        args: args.asIteration().children.map((a) => a.ast() as Term),
        loc: loc(this),
        nameLoc: loc(name),
      };
    },
    Aggregate_count(_kw: Node, _c: Node, body: Node) {
      return { kind: 'agg', op: 'count', target: null, body: aggBody(body), loc: loc(this) };
    },
    Aggregate_other(kw: Node, target: Node, _c: Node, body: Node) {
      return { kind: 'agg', op: kw.sourceString as AggOp, target: target.ast() as Term, body: aggBody(body), loc: loc(this) };
    },
    AggBody_braces(_o: Node, conj: Node, _c: Node) {
      return conj.ast();
    },
    AggBody_atom(atom: Node) {
      return [{ kind: 'atom', atom: atom.ast() as Atom, loc: loc(this) }];
    },
    number(_digits: Node) {
      return { kind: 'num', value: Number(this.sourceString), loc: loc(this) };
    },
    string(_o: Node, _chars: Node, _c: Node) {
      return { kind: 'str', value: unescapeString(this.sourceString.slice(1, -1)), loc: loc(this) };
    },
    wildcard(_u: Node) {
      return { kind: 'wildcard', loc: loc(this) };
    },
    variable(_id: Node) {
      return { kind: 'var', name: this.sourceString, loc: loc(this) };
    },
    _terminal(this: TerminalNode) {
      return this.sourceString;
    },
    _nonterminal(this: NonterminalNode, ...children: Node[]) {
      if (children.length === 1) return children[0]!.ast();
      throw new Error(`no semantic action for ${this.ctorName}`);
    },
  });
  semantics = s;
  return s;
}

/** The literals of an aggregate body; a disjunction there is reported (Soufflé has none). */
function aggBody(body: Node): Literal[] {
  const raw = body.ast() as RawConj;
  const out: Literal[] = [];
  const flatten = (items: RawConj): void => {
    for (const it of items) {
      if ('alts' in it) {
        if (it.alts.length > 1) {
          problems.push(
            errorAt(src, it.loc.start, it.loc.end, 'syntax-error', 'a disjunction `;` is not allowed inside an aggregate body', {
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
function expand(d: RawDisj, at: Location): Literal[][] {
  const conjs = (c: RawConj): Literal[][] => {
    let acc: Literal[][] = [[]];
    for (const item of c) {
      const alts = 'alts' in item ? expand(item, at) : [[item]];
      const next: Literal[][] = [];
      for (const a of acc) for (const b of alts) next.push([...a, ...b]);
      acc = next;
      if (acc.length > MAX_EXPANSION) {
        problems.push(errorAt(src, at.start, at.end, 'syntax-error', `this rule expands to more than ${MAX_EXPANSION} alternatives`, {
          fix: 'split the disjunctions into helper relations.',
        }));
        return acc.slice(0, 1);
      }
    }
    return acc;
  };
  return d.alts.flatMap(conjs);
}

function checkNumbers(t: Term): void {
  if (t.kind === 'num' && (t.value < INT_MIN || t.value > INT_MAX)) {
    problems.push(
      errorAt(t.loc.source, t.loc.start, t.loc.end, 'number-out-of-range', `the number ${t.value} does not fit in a 32-bit signed integer`, {
        fix: `use a value between ${INT_MIN} and ${INT_MAX}.`,
      }),
    );
  } else if (t.kind === 'agg') {
    if (t.target) checkNumbers(t.target);
    for (const l of t.body) checkLiteralNumbers(l);
  } else operands(t).forEach(checkNumbers);
}

function checkLiteralNumbers(l: Literal): void {
  if (l.kind === 'cmp') {
    checkNumbers(l.left);
    checkNumbers(l.right);
  } else l.atom.args.forEach(checkNumbers);
}

/** Parses one source text; throws DiagnosticError with a located syntax error. */
export function parseFile(source: SourceText): ParsedFile {
  const m = datalogGrammar().match(source.text);
  if (m.failed()) throw new DiagnosticError([syntaxError(source, m)]);
  src = source;
  problems = [];
  const file = getSemantics()(m).ast() as ParsedFile;
  for (const c of file.clauses) {
    c.head.args.forEach(checkNumbers);
    c.body.forEach(checkLiteralNumbers);
  }
  const found = problems;
  problems = [];
  if (found.length > 0) throw new DiagnosticError(found);
  return file;
}
