// Text rendering of tuples, proofs and why-not answers for the CLI and for humans.

import type { Value } from '../syntax/ast.js';
import type { Premise, Proof, WhyNot } from './provenance.js';

/** A value as written in a rule file: symbols quoted, numbers plain. */
export function formatValue(v: Value | null): string {
  if (v === null) return '_';
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** `rel(v1, v2)` with symbols quoted. */
export function formatTuple(rel: string, tuple: readonly (Value | null)[]): string {
  return `${rel}(${tuple.map(formatValue).join(', ')})`;
}

const MAX_INDENT = 40;

/**
 * A proof as an indented tree, one line per step. A subproof that appears twice is printed
 * once and referenced afterwards; indentation stops growing past 40 levels (depth shown).
 */
export function formatProof(proof: Proof): string {
  const lines: string[] = [];
  const printed = new Set<Proof>();
  const stack: Array<{ p: Premise | { kind: 'root'; proof: Proof }; depth: number }> = [{ p: { kind: 'root', proof }, depth: 0 }];
  while (stack.length > 0) {
    const { p, depth } = stack.pop()!;
    const pad = '  '.repeat(Math.min(depth, MAX_INDENT)) + (depth > MAX_INDENT ? `[${depth}] ` : '');
    if (p.kind === 'absent') {
      lines.push(`${pad}!${formatTuple(p.relation, p.tuple)}  not present`);
      continue;
    }
    if (p.kind === 'aggregate') {
      lines.push(`${pad}${p.text}  (aggregate value ${formatValue(p.value)})`);
      continue;
    }
    if (p.kind === 'constraint') {
      lines.push(`${pad}${p.text}  holds`);
      continue;
    }
    const pr = p.proof;
    const head = formatTuple(pr.relation, pr.tuple);
    if (pr.kind === 'input') {
      lines.push(`${pad}${head}  [input fact]`);
      continue;
    }
    if (pr.kind === 'fact') {
      lines.push(`${pad}${head}  [fact ${pr.rule!.path}:${pr.rule!.line}]`);
      continue;
    }
    if (printed.has(pr)) {
      lines.push(`${pad}${head}  [proved above]`);
      continue;
    }
    printed.add(pr);
    if (!pr.rule) {
      lines.push(`${pad}${head}  [no proof found]`);
      continue;
    }
    const subst = (pr.substitution ?? []).map(([k, v]) => `${k}=${formatValue(v)}`).join(', ');
    lines.push(`${pad}${head}  [rule ${pr.rule.path}:${pr.rule.line}, height ${pr.height}]${subst ? `  {${subst}}` : ''}`);
    for (let i = pr.premises.length - 1; i >= 0; i--) stack.push({ p: pr.premises[i]!, depth: depth + 1 });
  }
  return lines.join('\n');
}

/** The why-not answer for an absent tuple, one paragraph per rule. */
export function formatWhyNot(rel: string, tuple: readonly (Value | null)[], answers: readonly WhyNot[], input: boolean): string {
  const t = formatTuple(rel, tuple);
  if (answers.length === 0) {
    return input
      ? `${t} is not derived: ${rel} is an input relation and this tuple is not among its facts.`
      : `${t} is not derived: no rule derives ${rel}.`;
  }
  const lines = [`${t} is not derived:`];
  for (const a of answers) {
    const pos = a.loc.source.position(a.loc.start);
    lines.push(`  rule ${a.rule.path}:${a.rule.line}: ${a.rule.text}`);
    if (a.bindings.length > 0) lines.push(`    with ${a.bindings.map(([k, v]) => `${k}=${formatValue(v)}`).join(', ')}`);
    if (a.literal) lines.push(`    fails at ${a.literal} (${pos.line}:${pos.col}): ${a.reason}`);
    else lines.push(`    ${a.reason}`);
  }
  return lines.join('\n');
}
