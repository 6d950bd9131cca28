/**
 * Non-canonical respellings of canonical text: the same program written the way users
 * write it (short op names, `pl.manual_scope()`, Python `range`, 2-space indentation,
 * comments, blank lines, redundant parentheses). For properties like "fmt of a respelling is
 * the canonical text". Meant for text printed by `printModule` from generated programs
 * (whose strings never hold `#`, quotes or newlines): the rewrites are textual.
 */
import fc from 'fast-check';

export interface Respelling {
  shortOps: boolean;
  manualScope: boolean;
  pythonRange: boolean;
  twoSpaceIndent: boolean;
  comments: boolean;
  blankLines: boolean;
  parens: boolean;
  /** Seed of the per-line choices (where comments, blank lines, parentheses go). */
  seed: number;
}

const SHORT: [RegExp, string][] = [
  [/(?<![\w.])pl\.tile\.store\(/g, 'pl.store('],
  [/(?<![\w.])pl\.tile\.load\(/g, 'pl.load('],
  [/(?<![\w.])pl\.tensor\.write\(/g, 'pl.write('],
  [/(?<![\w.])pl\.tensor\.read\(/g, 'pl.read('],
  [/(?<![\w.])pl\.tensor\.assemble\(/g, 'pl.assemble('],
  [/(?<![\w.])pl\.tensor\.view\(/g, 'pl.view('],
  [/(?<![\w.])pl\.tensor\.matmul\(/g, 'pl.matmul('],
];

/** Applies a respelling to canonical module text. */
export function respell(text: string, r: Respelling): string {
  let t = text;
  if (r.shortOps) for (const [re, s] of SHORT) t = t.replace(re, s);
  if (r.manualScope) {
    t = t.replace(/pl\.scope\(mode=pl\.ScopeMode\.MANUAL\)/g, 'pl.manual_scope()');
    t = t.replace(/pl\.scope\(mode=pl\.ScopeMode\.MANUAL, /g, 'pl.manual_scope(');
  }
  if (r.pythonRange) t = t.replace(/ in pl\.range\(/g, ' in range(');
  let seed = r.seed >>> 0;
  const rnd = (k: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % k;
  };
  const out: string[] = [];
  let inClass = false;
  for (let line of t.split('\n')) {
    const m = /^( *)(.*)$/.exec(line)!;
    let ind = m[1]!;
    const body = m[2]!;
    if (body.startsWith('class ')) inClass = true;
    if (r.twoSpaceIndent) ind = ' '.repeat(ind.length / 2);
    line = ind + body;
    if (r.parens && rnd(3) === 0) {
      const a = /^(\s*[A-Za-z_]\w*) = (.+)$/.exec(line);
      if (a) line = `${a[1]} = (${a[2]})`;
    }
    if (r.comments && inClass && body !== '' && rnd(4) === 0) line += '  # note';
    if (r.comments && inClass && body !== '' && rnd(6) === 0) out.push(`${ind}# a comment line`);
    out.push(line);
    if (r.blankLines && inClass && body !== '' && rnd(5) === 0) out.push('');
  }
  return out.join('\n');
}

export const arbRespelling: fc.Arbitrary<Respelling> = fc.record({
  shortOps: fc.boolean(),
  manualScope: fc.boolean(),
  pythonRange: fc.boolean(),
  twoSpaceIndent: fc.boolean(),
  comments: fc.boolean(),
  blankLines: fc.boolean(),
  parens: fc.boolean(),
  seed: fc.nat(),
});
