// Kind checking (symbol vs number) of one clause, through variables and across literals.
import { type Diagnostic, errorAt, type Location } from '../../report/diagnostic.js';
import { type Atom, type Clause, isStringConstraint, type Kind, type Literal, operands, type Term } from '../syntax/ast.js';
import { CONTAINS, FUNCTORS, type FunctorSig, MATCH, paramKind } from './functors.js';
import { displayName } from './scope.js';

/** What the type checker needs to know about a relation. */
export interface RelationShape {
  name: string;
  attrs: string[];
  kinds: Kind[];
}

interface Origin {
  kind: Kind;
  loc: Location;
  why: string;
}

function where(loc: Location): string {
  const p = loc.source.position(loc.start);
  return `line ${p.line}, col ${p.col}`;
}

function show(t: Term): string {
  const s = t.loc.source.text.slice(t.loc.start, t.loc.end);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

/**
 * Pushes a type-mismatch error for every inconsistent use of kinds in clause `c`; returns the
 * kind of every variable (number when nothing constrains it).
 */
export function typecheckClause(c: Clause, shapeOf: (rel: string) => RelationShape | undefined, errors: Diagnostic[]): Map<string, Kind> {
  const parent = new Map<string, string>();
  const origin = new Map<string, Origin>();
  const reported = new Set<string>();
  const find = (v: string): string => {
    let r = v;
    while (parent.has(r)) r = parent.get(r)!;
    return r;
  };
  const report = (loc: Location, message: string, fix: string, key: string): void => {
    if (reported.has(key)) return;
    reported.add(key);
    errors.push(errorAt(loc.source, loc.start, loc.end, 'type-mismatch', message, { fix }));
  };

  const setVar = (t: Term & { kind: 'var' }, kind: Kind, why: string): void => {
    const root = find(t.name);
    const o = origin.get(root);
    if (!o) origin.set(root, { kind, loc: t.loc, why });
    else if (o.kind !== kind) {
      const name = displayName(t.name);
      report(
        t.loc,
        `\`${name}\` is used as a ${kind} here (${why}) but as a ${o.kind} at ${where(o.loc)} (${o.why})`,
        `use two different variables, or change a declaration so that both places have the same type.`,
        `var:${root}`,
      );
    }
  };

  const infer = (t: Term): Kind | string | null => {
    switch (t.kind) {
      case 'var': {
        const root = find(t.name);
        return origin.get(root)?.kind ?? `var:${root}`;
      }
      case 'wildcard':
        return null;
      case 'num':
        return 'number';
      case 'str':
        return 'symbol';
      case 'bin':
        expect(t.left, 'number', `an operand of \`${t.op}\``);
        expect(t.right, 'number', `an operand of \`${t.op}\``);
        return 'number';
      case 'neg':
        expect(t.arg, 'number', 'the operand of unary `-`');
        return 'number';
      case 'agg':
        if (t.target) expect(t.target, 'number', `the value of \`${t.op}\``);
        return 'number';
      case 'call':
        // The arguments are checked by `expectArg` once atoms and comparisons fixed the kinds.
        return FUNCTORS[t.fn].result;
    }
  };

  /** Checks argument `i` of a functor (or of `contains`) against its signature. */
  const expectArg = (name: string, sig: FunctorSig, i: number, t: Term): void => {
    const kind = paramKind(sig, i);
    const convert = (): string =>
      kind === 'symbol'
        ? `convert it with to_string(${show(t)}).`
        : `convert it with to_number(${show(t)})${name === 'min' || name === 'max' ? ` (${name} compares numbers only)` : ''}.`;
    const head = `${name} takes ${sig.takes} but argument ${i + 1}`;
    if (t.kind === 'var') {
      const root = find(t.name);
      const o = origin.get(root);
      if (!o) origin.set(root, { kind, loc: t.loc, why: `argument ${i + 1} of \`${name}\`` });
      else if (o.kind !== kind)
        report(t.loc, `${head} (\`${displayName(t.name)}\`) is a ${o.kind} (${o.why} at ${where(o.loc)})`, convert(), `var:${root}`);
      return;
    }
    const k = infer(t);
    if (k === null || k.startsWith('var:')) return;
    if (k !== kind) report(t.loc, `${head} (\`${show(t)}\`) is a ${k}`, convert(), `at:${t.loc.start}`);
  };

  const expect = (t: Term, kind: Kind, why: string): void => {
    if (t.kind === 'var') {
      setVar(t, kind, why);
      return;
    }
    const k = infer(t);
    if (k === null || k.startsWith('var:')) return;
    if (k !== kind) {
      let fix =
        kind === 'symbol'
          ? 'write a symbol here (a string in double quotes or a symbol variable), or change the declared type to number.'
          : 'write a number here (an integer, a number variable or arithmetic), or change the declared type to symbol.';
      if (t.kind === 'call') {
        fix = `convert it with ${kind === 'symbol' ? 'to_string' : 'to_number'}(${show(t)}), or change the declared type to ${k}.`;
      }
      report(t.loc, `${why} is a ${kind} but \`${show(t)}\` is a ${k}`, fix, `at:${t.loc.start}`);
    }
  };

  const atoms: Atom[] = [];
  const cmps: Array<Literal & { kind: 'cmp' }> = [];
  const aggTargets: Term[] = [];
  const calls: Array<Term & { kind: 'call' }> = [];
  const collectTerm = (t: Term): void => {
    if (t.kind === 'agg') {
      if (t.target) {
        aggTargets.push(t);
        collectTerm(t.target);
      }
      t.body.forEach(collectLit);
    } else {
      if (t.kind === 'call') calls.push(t);
      operands(t).forEach(collectTerm);
    }
  };
  const collectLit = (l: Literal): void => {
    if (l.kind === 'cmp') {
      cmps.push(l);
      collectTerm(l.left);
      collectTerm(l.right);
    } else {
      atoms.push(l.atom);
      l.atom.args.forEach(collectTerm);
    }
  };
  c.body.forEach(collectLit);
  atoms.push(c.head);
  c.head.args.forEach(collectTerm);

  for (const a of atoms) {
    const shape = shapeOf(a.rel);
    if (!shape || shape.kinds.length !== a.args.length) continue;
    a.args.forEach((t, i) => expect(t, shape.kinds[i]!, `column ${i + 1} (${shape.attrs[i]}) of ${shape.name}`));
  }
  for (const t of aggTargets) infer(t);
  for (const l of cmps) {
    if (isStringConstraint(l.op)) {
      const name = l.op.replace('!', '');
      const sig = name === 'match' ? MATCH : CONTAINS;
      expectArg(name, sig, 0, l.left);
      expectArg(name, sig, 1, l.right);
      continue;
    }
    const ordered = l.op !== '=' && l.op !== '!=';
    if (ordered) {
      expect(l.left, 'number', `an operand of \`${l.op}\``);
      expect(l.right, 'number', `an operand of \`${l.op}\``);
      continue;
    }
    const kl = infer(l.left);
    const kr = infer(l.right);
    if (kl === null || kr === null) continue;
    const lv = kl.startsWith('var:');
    const rv = kr.startsWith('var:');
    if (lv && rv) {
      const a = kl.slice(4);
      const b = kr.slice(4);
      if (a !== b) parent.set(a, b);
    } else if (lv && l.left.kind === 'var') setVar(l.left, kr as Kind, `compared with \`${show(l.right)}\``);
    else if (rv && l.right.kind === 'var') setVar(l.right, kl as Kind, `compared with \`${show(l.left)}\``);
    else if (!lv && !rv && kl !== kr) {
      report(
        l.loc,
        `\`${show(l.left)}\` is a ${kl} but \`${show(l.right)}\` is a ${kr}, so \`${l.op}\` compares values of different types`,
        'compare values of the same type (both symbols or both numbers).',
        `at:${l.loc.start}`,
      );
    }
  }
  for (const call of calls) call.args.forEach((a, i) => expectArg(call.fn, FUNCTORS[call.fn], i, a));
  const kinds = new Map<string, Kind>();
  const allVars = (t: Term): void => {
    if (t.kind === 'var') kinds.set(t.name, origin.get(find(t.name))?.kind ?? 'number');
    else if (t.kind !== 'agg') operands(t).forEach(allVars);
    else {
      if (t.target) allVars(t.target);
      for (const l of t.body) (l.kind === 'cmp' ? [l.left, l.right] : l.atom.args).forEach(allVars);
    }
  };
  c.head.args.forEach(allVars);
  for (const l of c.body) (l.kind === 'cmp' ? [l.left, l.right] : l.atom.args).forEach(allVars);
  return kinds;
}
