// Static checks of a whole rule program, before any evaluation; builds the RuleProgram.
import { type Diagnostic, DiagnosticError, errorAt, type Location } from '../../report/diagnostic.js';
import { closestName } from '../../report/suggest.js';
import { type Atom, type Clause, type Kind, type Literal, operands, type Term } from '../syntax/ast.js';
import type { LoadedFile } from '../syntax/load.js';
import { arityProblem, FUNCTORS } from './functors.js';
import { groundClause, literalTerms } from './ground.js';
import { type ProgramClause, type RelationInfo, RuleProgram, type Stratum } from './program.js';
import { scopeClause } from './scope.js';
import { components, dependencyEdges, stratificationErrors } from './stratify.js';
import { typecheckClause } from './typecheck.js';

function at(loc: Location, code: string, message: string, fix: string, extra: Partial<Diagnostic> = {}): Diagnostic {
  return errorAt(loc.source, loc.start, loc.end, code, message, { fix, ...extra });
}

function warnAt(loc: Location, code: string, message: string, fix: string): Diagnostic {
  return { ...at(loc, code, message, fix), severity: 'warning' };
}

const suggest = closestName;

/** Every atom of a clause (head, body, negations and aggregate bodies) with its polarity. */
function clauseAtoms(c: Clause): Array<{ atom: Atom; head: boolean }> {
  const out: Array<{ atom: Atom; head: boolean }> = [{ atom: c.head, head: true }];
  const term = (t: Term): void => {
    if (t.kind === 'agg') {
      if (t.target) term(t.target);
      t.body.forEach(lit);
    } else operands(t).forEach(term);
  };
  const lit = (l: Literal): void => {
    if (l.kind !== 'cmp') out.push({ atom: l.atom, head: false });
    literalTerms(l).forEach(term);
  };
  c.head.args.forEach(term);
  c.body.forEach(lit);
  return out;
}

/** Every functor call of a clause (head, body, aggregates), outermost first. */
function clauseCalls(c: Clause): Array<Term & { kind: 'call' }> {
  const out: Array<Term & { kind: 'call' }> = [];
  const term = (t: Term): void => {
    if (t.kind === 'call') out.push(t);
    if (t.kind === 'agg') {
      if (t.target) term(t.target);
      for (const l of t.body) literalTerms(l).forEach(term);
    } else operands(t).forEach(term);
  };
  c.head.args.forEach(term);
  for (const l of c.body) literalTerms(l).forEach(term);
  return out;
}

const RESERVED = new Set([...Object.keys(FUNCTORS), 'contains', 'match']);

/** Runs every static check on the loaded files; throws DiagnosticError on errors, returns warnings. */
export function checkProgram(files: readonly LoadedFile[]): { program: RuleProgram; warnings: Diagnostic[] } {
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];

  // Types: symbol, number and aliases `.type T <: base`.
  const typeBase = new Map<string, { base: string; loc: Location }>();
  for (const f of files) {
    for (const t of f.parsed.types) {
      if (t.name === 'symbol' || t.name === 'number' || typeBase.has(t.name)) {
        errors.push(
          at(
            t.nameLoc,
            'duplicate-declaration',
            `the type ${t.name} is already declared`,
            'give the type another name or remove this declaration.',
          ),
        );
        continue;
      }
      typeBase.set(t.name, { base: t.base, loc: t.loc });
    }
  }
  const kindOfType = (name: string): Kind | undefined => {
    const seen = new Set<string>();
    let cur = name;
    for (;;) {
      if (cur === 'symbol' || cur === 'number') return cur;
      const next = typeBase.get(cur);
      if (!next || seen.has(cur)) return undefined;
      seen.add(cur);
      cur = next.base;
    }
  };
  for (const [name, t] of typeBase) {
    if (!kindOfType(name)) {
      errors.push(
        at(
          t.loc,
          'unknown-type',
          `the type ${name} does not resolve to symbol or number`,
          'declare it as `.type Name <: symbol` or `.type Name <: number`.',
        ),
      );
    }
  }

  // Relations.
  const relations: RelationInfo[] = [];
  const byName = new Map<string, RelationInfo>();
  // Duplicates: one error per relation; when a file re-declares many relations of another (a
  // copied rules directory loaded beside the shipped one), one error for the pair of files.
  const dups = new Map<string, Array<{ name: string; loc: Location; first: Location }>>();
  const dupNames = new Set<string>();
  for (const f of files) {
    for (const d of f.parsed.decls) {
      const prev = byName.get(d.name);
      if (prev) {
        if (dupNames.has(d.name)) continue;
        dupNames.add(d.name);
        const key = `${prev.loc.source.path}\0${d.nameLoc.source.path}`;
        let list = dups.get(key);
        if (!list) dups.set(key, (list = []));
        list.push({ name: d.name, loc: d.nameLoc, first: prev.loc });
        continue;
      }
      if (RESERVED.has(d.name)) {
        errors.push(
          at(
            d.nameLoc,
            'reserved-name',
            `${d.name} is a built-in ${d.name === 'contains' || d.name === 'match' ? 'constraint' : 'functor'} of Soufflé and cannot name a relation`,
            `rename the relation, e.g. \`${d.name}_rel\`.`,
          ),
        );
      }
      const kinds: Kind[] = [];
      for (const a of d.attrs) {
        const k = kindOfType(a.type);
        if (!k) {
          const s = suggest(a.type, ['symbol', 'number', ...typeBase.keys()]);
          errors.push(
            at(
              a.loc,
              'unknown-type',
              `unknown type ${a.type} for attribute ${a.name}`,
              s ? `did you mean \`${s}\`?` : 'use symbol, number or a type declared with `.type`.',
            ),
          );
        }
        kinds.push(k ?? 'symbol');
      }
      const info: RelationInfo = {
        id: relations.length,
        name: d.name,
        attrs: d.attrs.map((a) => a.name),
        types: d.attrs.map((a) => a.type),
        kinds,
        loc: d.nameLoc,
        input: false,
        output: false,
        printsize: false,
      };
      relations.push(info);
      byName.set(d.name, info);
    }
  }
  for (const list of dups.values()) {
    const one = list[0]!;
    if (list.length < 3) {
      for (const d of list) {
        errors.push(
          at(d.loc, 'duplicate-declaration', `the relation ${d.name} is already declared`, 'remove one of the two declarations.', {
            related: [{ location: d.first, message: 'first declared here' }],
          }),
        );
      }
      continue;
    }
    const names = list.map((d) => d.name);
    const shown = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
    errors.push(
      at(
        one.loc,
        'duplicate-declaration',
        `${one.loc.source.path} declares ${names.length} relations that ${one.first.source.path} already declares (${shown})`,
        'the two files look like copies of one another (e.g. a copied rules directory loaded beside the shipped one): include only one of them.',
        { related: [{ location: one.first, message: `${one.name} first declared here` }] },
      ),
    );
  }

  const undeclared = (name: string, loc: Location): Diagnostic => {
    const s = suggest(name, byName.keys());
    return at(
      loc,
      'undeclared-relation',
      `the relation ${name} is not declared`,
      s
        ? `did you mean \`${s}\`? Otherwise declare it with \`.decl ${name}(...)\`.`
        : `declare it with \`.decl ${name}(attr: type, ...)\`.`,
    );
  };
  for (const f of files) {
    for (const io of f.parsed.io) {
      const r = byName.get(io.rel);
      if (!r) errors.push(undeclared(io.rel, io.loc));
      else r[io.directive] = true;
    }
  }

  // Clauses: declarations, arity, scoping, kinds, grounding.
  const clauses: ProgramClause[] = [];
  const usedInBody = new Set<string>();
  for (const f of files) {
    for (const raw of f.parsed.clauses) {
      let ok = true;
      for (const { atom, head } of clauseAtoms(raw)) {
        const r = byName.get(atom.rel);
        if (!head) usedInBody.add(atom.rel);
        if (!r) {
          errors.push(undeclared(atom.rel, atom.nameLoc));
          ok = false;
        } else if (r.kinds.length !== atom.args.length) {
          errors.push(
            at(
              atom.loc,
              'arity-mismatch',
              `${atom.rel} has ${r.kinds.length} column${r.kinds.length === 1 ? '' : 's'} but is used here with ${atom.args.length}`,
              `write ${atom.rel}(${r.attrs.map((a, i) => `${a}: ${r.types[i]}`).join(', ')}) with one argument per column (\`_\` for any value).`,
            ),
          );
          ok = false;
        }
      }
      for (const call of clauseCalls(raw)) {
        const sig = FUNCTORS[call.fn];
        const problem = arityProblem(call.fn, sig, call.args.length);
        if (!problem) continue;
        const agg =
          call.fn === 'min' || call.fn === 'max'
            ? `; for the ${call.fn === 'min' ? 'smallest' : 'largest'} value over a body, write the aggregate \`${call.fn} X : { ... }\``
            : '';
        errors.push(at(call.loc, 'arity-mismatch', problem, `write ${sig.usage}${agg}.`));
        ok = false;
      }
      const head = byName.get(raw.head.rel);
      if (head?.input && !raw.isFact) {
        errors.push(
          at(
            raw.head.loc,
            'derives-input',
            `${head.name} is an .input relation and cannot be derived by a rule`,
            `remove \`.input ${head.name}\`, or derive into a new relation.`,
          ),
        );
      }
      if (!ok) continue;
      const c = scopeClause(raw);
      const varKinds = typecheckClause(c, (n) => byName.get(n), errors);
      groundClause(c, errors);
      clauses.push({ id: clauses.length, clause: c, head: head!.id, varKinds });
    }
  }
  if (errors.length > 0) throw new DiagnosticError(sortDiagnostics(errors));

  // Stratification.
  const edges = dependencyEdges(clauses, (n) => byName.get(n)!.id);
  const comps = components(relations.length, edges);
  const strErrors = stratificationErrors(
    comps,
    edges,
    relations.map((r) => r.name),
  );
  if (strErrors.length > 0) throw new DiagnosticError(sortDiagnostics(strErrors));
  const compOf = new Int32Array(relations.length);
  comps.forEach((c, i) => c.forEach((r) => (compOf[r] = i)));
  const strata: Stratum[] = comps.map((rels) => ({ relations: rels, recursive: rels.length > 1, clauses: [] }));
  for (const e of edges) if (e.from === e.to) strata[compOf[e.from]!]!.recursive = true;
  for (const c of clauses) strata[compOf[c.head]!]!.clauses.push(c.id);

  // Warnings.
  const derived = new Set(clauses.map((c) => c.head));
  for (const r of relations) {
    const used = usedInBody.has(r.name);
    if (!used && !derived.has(r.id) && !r.input && !r.output && !r.printsize) {
      warnings.push(
        warnAt(
          r.loc,
          'unused-relation',
          `the relation ${r.name} is declared but never used`,
          'remove the declaration, or use the relation in a rule.',
        ),
      );
    } else if (!used && derived.has(r.id) && !r.output && !r.printsize) {
      warnings.push(
        warnAt(
          r.loc,
          'unused-relation',
          `the relation ${r.name} is derived but never read by a rule nor output`,
          `read it in a rule or add \`.output ${r.name}\`.`,
        ),
      );
    } else if ((r.output || r.printsize) && !r.input && !derived.has(r.id)) {
      warnings.push(
        warnAt(
          r.loc,
          'underived-output',
          `the output relation ${r.name} is never derived, so it is always empty`,
          `add a rule or fact for ${r.name}, or mark it \`.input\`.`,
        ),
      );
    } else if (used && !r.input && !derived.has(r.id)) {
      warnings.push(
        warnAt(
          r.loc,
          'underived-relation',
          `the relation ${r.name} is read by rules but has no rule, fact or \`.input\`, so it is always empty`,
          `add \`.input ${r.name}\` or a rule deriving it.`,
        ),
      );
    }
  }
  const program = new RuleProgram(
    relations,
    clauses,
    strata,
    files.map((f) => f.source),
  );
  return { program, warnings: sortDiagnostics(warnings) };
}

/** Diagnostics ordered by file (in load order), then position. */
export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return [...ds].sort((a, b) => {
    const pa = a.location?.source.path ?? a.path ?? '';
    const pb = b.location?.source.path ?? b.path ?? '';
    if (pa !== pb) return pa < pb ? -1 : 1;
    return (a.location?.start ?? 0) - (b.location?.start ?? 0);
  });
}
