import { isAbsolute, relative, resolve, sep } from 'node:path';
import { formatProof, formatTuple, formatWhyNot, type Proof, type Value } from '../datalog/index.js';
import { parsePatternText } from '../datalog/io/tuple-text.js';
import type { WhyNot } from '../datalog/provenance/provenance.js';
import type { Entity } from '../facts/extract.js';
import { partAt, type Span } from '../ir/nodes.js';
import { DiagnosticError } from '../report/diagnostic.js';
import type { Analysis } from './analyze.js';
import { type ContractManifest, manifestError } from './manifest.js';

/** What a contract's manifest says `explain` shows (`[explain]` show and probes), and where it says it. */
export type ExplainSpec = Pick<ContractManifest, 'explainShow' | 'explainProbes'> & Partial<Pick<ContractManifest, 'site'>>;

const NO_SPEC: ExplainSpec = { explainShow: [], explainProbes: [] };

/** The edit vocabulary and diagnostics (rules/edits.dl) `explain` always lists, after the contract's own relations. */
const ALWAYS = ['replace_deps', 'set_kwarg', 'replace_kwarg', 'remove_func_attr', 'hoist_call', 'bad_edit', 'finding', 'explanation'];

/**
 * Relations whose tuples `explain` shows at a line, each anchored at its first number column:
 * the contract's `show` (default insert_call), then the rest of the edit vocabulary and the
 * findings.
 */
function anchored(a: Analysis, spec: ExplainSpec): Array<{ rel: string; col: number }> {
  spec.explainShow.forEach((rel, i) => {
    const info = a.program.relation(rel);
    if (spec.site && !info?.kinds.includes('number')) {
      throw manifestError(
        spec.site,
        spec.site.showAt[i] ?? 0,
        info
          ? `[explain] show: ${rel} has no number column to anchor it at a line`
          : `[explain] show: the relation ${rel} is not declared by the contract's rules`,
      );
    }
  });
  const rels = [...(spec.explainShow.length > 0 ? spec.explainShow : ['insert_call']), ...ALWAYS];
  const out: Array<{ rel: string; col: number }> = [];
  for (const rel of rels) {
    const col = a.program.relation(rel)?.kinds.indexOf('number') ?? -1;
    if (col >= 0 && !out.some((x) => x.rel === rel)) out.push({ rel, col });
  }
  return out;
}

/**
 * The contract's why-not probes for statement `s` (its `$s`; `_` any value), as relation and
 * tuple. A probe the rules cannot read is a `manifest` error at its line in contract.toml.
 */
function probes(a: Analysis, spec: ExplainSpec, s: number): Array<[string, (Value | null)[]]> {
  return spec.explainProbes.map((p, i) => {
    try {
      const t = parsePatternText(a.program, p.replaceAll('$s', String(s)));
      return [t.rel, t.values];
    } catch (e) {
      if (!(e instanceof DiagnosticError) || !spec.site) throw e;
      const d = e.diagnostics[0]!;
      throw manifestError(spec.site, spec.site.probeAt[i] ?? 0, `[explain] probe '${p}': ${d.message}`, d.fix);
    }
  });
}

/** Ids of the statements and expressions that start on 1-based `line`. */
export function nodesOnLine(a: Analysis, line: number): number[] {
  const src = a.module.source;
  const out: number[] = [];
  for (let id = 1; id <= a.table.size; id++) {
    const e = a.table.get(id);
    if (e !== undefined && isLocated(e) && src.position(e.start).line === line) out.push(id);
  }
  return out;
}

function isLocated(e: Entity): e is Entity & Span {
  return e.kind !== 'Block' && e.kind !== 'Exit' && e.kind !== 'Binding' && e.kind !== 'Param' && 'start' in e;
}

/** A short description of an id: `line:col` and the first line of its text. */
export function describeId(a: Analysis, id: number): string | undefined {
  const e = a.table.get(id);
  return e === undefined ? undefined : describeEntity(a, e);
}

function describeEntity(a: Analysis, e: Entity): string | undefined {
  if (e.kind === 'Block') return undefined;
  if (e.kind === 'Exit') return `the exit of function ${e.func.name}`;
  const span: Span | undefined = 'start' in e ? e : undefined;
  if (!span) return undefined;
  // (A node of a helper read from another file: that file's place, `path:line:col`.)
  const part = a.module.parts ? partAt(a.module.parts, span.start) : undefined;
  const src = part ? part.source : a.module.source;
  const base = part?.base ?? 0;
  const { line, col } = src.position(span.start - base);
  const text = src.text
    .slice(span.start - base, span.end - base)
    .split('\n')[0]!
    .trim();
  if (text === '' && e.kind !== 'Binding') return undefined;
  const what = e.kind === 'Binding' ? `variable ${e.name}` : `\`${text.length > 60 ? `${text.slice(0, 57)}...` : text}\``;
  return `${part && base > 0 ? `${src.path}:` : ''}${line}:${col} ${what}`;
}

/**
 * The id types of the fact schema (rules/schema.dl): a column declared with one of them holds a
 * node, statement or block id; every other number column (a count, a position, a line) does not.
 */
const ID_TYPES: ReadonlySet<string> = new Set(['NodeId', 'StmtId', 'BlockId']);

/**
 * The ids a proof rests on: the values of the id-typed columns (by the relations' declared
 * types) of every tuple in the whole proof tree, not only the top one.
 */
function proofIds(a: Analysis, proof: Proof, ids: Set<number>): void {
  const types = a.program.relation(proof.relation)?.types;
  proof.tuple.forEach((v, col) => {
    if (typeof v === 'number' && v > 0 && ID_TYPES.has(types?.[col] ?? '')) ids.add(v);
  });
  for (const p of proof.premises) if (p.kind === 'atom') proofIds(a, p.proof, ids);
}

/** A block (statement list) as its role and owner: `body of 34:9 \`with ...\``. */
function describeBlock(a: Analysis, id: number): string | undefined {
  const e = a.table.get(id);
  if (e?.kind !== 'Block') return undefined;
  const owner = e.owner.kind === 'Function' ? `function ${e.owner.name}` : describeEntity(a, e.owner);
  return owner === undefined ? undefined : `${e.role} of ${owner}`;
}

function legend(a: Analysis, proof: Proof): string[] {
  const ids = new Set<number>();
  proofIds(a, proof, ids);
  const out: string[] = [];
  for (const id of [...ids].sort((x, y) => x - y)) {
    const d = describeId(a, id) ?? describeBlock(a, id);
    if (d) out.push(`    ${id} = ${d}`);
  }
  return out;
}

/** One line per tuple the rules derived at a line (edits, findings, explanations), without proofs. */
export function explainSummary(a: Analysis, line: number, spec: ExplainSpec = NO_SPEC): string[] {
  const nodes = new Set(nodesOnLine(a, line));
  const out: string[] = [];
  for (const { rel, col } of anchored(a, spec)) {
    if (!a.result.has(rel)) continue;
    for (const t of a.result.tuples(rel)) {
      if (nodes.has(t[col] as number)) out.push(summaryLine(rel, t));
    }
  }
  return out;
}

function summaryLine(rel: string, t: readonly Value[]): string {
  return rel === 'explanation' ? String(t[1]) : rel === 'finding' ? `${String(t[0])}: ${String(t[3])}` : `derives ${formatTuple(rel, t)}`;
}

/** How a proof names a rule file (its path as loaded → as printed). */
export type RulePathShown = (path: string) => string;

/**
 * Rule paths as `explain` prints them: a file under one of `roots` relative to it, after its
 * label (`<ptolog/lib.dl>` for the shipped rules, `my_contract/rules.dl` for a
 * contract folder), so that a proof reads the same from any directory. `base` resolves a
 * relative path as loaded (the working directory the rule session shows paths from).
 */
export function rulePathsUnder(base: string, roots: ReadonlyArray<{ dir: string; label: (rel: string) => string }>): RulePathShown {
  return (path) => {
    const abs = isAbsolute(path) ? path : resolve(base, path);
    for (const r of roots) {
      const rel = relative(resolve(r.dir), abs);
      if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return r.label(rel.split(sep).join('/'));
    }
    return path;
  };
}

function proofShown(p: Proof, show: RulePathShown, memo: Map<Proof, Proof>): Proof {
  const hit = memo.get(p);
  if (hit) return hit;
  const out: Proof = { ...p, ...(p.rule ? { rule: { ...p.rule, path: show(p.rule.path) } } : {}), premises: [] };
  memo.set(p, out);
  out.premises = p.premises.map((x) => (x.kind === 'atom' ? { kind: 'atom', proof: proofShown(x.proof, show, memo) } : x));
  return out;
}

function whyNotShown(w: WhyNot, show: RulePathShown): WhyNot {
  return { ...w, rule: { ...w.rule, path: show(w.rule.path) } };
}

/**
 * What the rules derived at a line (edits, findings, explanations), each with its proof and a
 * legend of the node ids in it; for a statement with nothing derived, why the contract's
 * probes (its manifest's `[explain] probes`) were not derived. `show` names the rule files in
 * proofs (default: as loaded).
 */
export function explainLine(a: Analysis, line: number, spec: ExplainSpec = NO_SPEC, show: RulePathShown = (p) => p): string {
  const nodes = new Set(nodesOnLine(a, line));
  const src = a.module.source;
  const summary: string[] = [];
  const out: string[] = [];
  for (const { rel, col } of anchored(a, spec)) {
    if (!a.result.has(rel)) continue;
    for (const t of a.result.tuples(rel)) {
      if (!nodes.has(t[col] as number)) continue;
      summary.push(`  ${summaryLine(rel, t)}`);
      const proof = a.result.explain(rel, t);
      out.push(`proof of ${formatTuple(rel, t)}:`);
      if (proof) {
        out.push(formatProof(proofShown(proof, show, new Map())).replace(/^/gm, '  '));
        const l = legend(a, proof);
        if (l.length > 0) out.push('  where', ...l);
      }
      out.push('');
    }
  }
  if (summary.length > 0) out.unshift(`${src.path}:${line}:`, ...summary, '');
  if (out.length > 0) return out.join('\n');
  const stmts = [...nodes].filter((id) => {
    const e = a.table.get(id);
    return e !== undefined && a.table.blockOfStmt(id) !== undefined && e.kind !== 'Block';
  });
  if (stmts.length === 0) return `${src.path}:${line}: no statement starts on this line.\n`;
  for (const s of stmts) {
    out.push(`${src.path}:${line}: nothing is derived at ${describeId(a, s)}.`);
    for (const [rel, tuple] of probes(a, spec, s)) {
      if (!a.result.has(rel)) continue;
      const answers = a.result
        .whyNot(rel, tuple)
        .filter((w) => w.literal !== null)
        .map((w) => whyNotShown(w, show));
      if (answers.length > 0) out.push(formatWhyNot(rel, tuple, answers, false).replace(/^/gm, '  '));
    }
    out.push('');
  }
  return out.join('\n');
}
