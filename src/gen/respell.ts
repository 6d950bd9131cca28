/**
 * Non-canonical respellings of canonical text: the same program written the way users
 * write it (short op names, `pl.manual_scope()`, Python `range`, 2-space indentation,
 * comments (numbered, so each can be followed: a header before the imports, lines before and
 * trailing comments on the lines of programs and kernels), blank lines, redundant parentheses). For properties like "fmt of a respelling is
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

// (`pl.read`, `pl.write`, `pl.assemble` are not respellings: they dispatch on their operand's type.)
const SHORT: [RegExp, string][] = [
  [/(?<![\w.])pl\.tile\.store\(/g, 'pl.store('],
  [/(?<![\w.])pl\.tile\.load\(/g, 'pl.load('],
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
  let note = 0;
  if (r.comments) out.push('# header comment', '');
  for (let line of t.split('\n')) {
    const m = /^( *)(.*)$/.exec(line)!;
    let ind = m[1]!;
    const body = m[2]!;
    if (body.startsWith('class ') || body.startsWith('@')) inClass = true;
    if (r.twoSpaceIndent) ind = ' '.repeat(ind.length / 2);
    line = ind + body;
    if (r.parens && rnd(3) === 0) {
      const a = /^(\s*[A-Za-z_]\w*) = (.+)$/.exec(line);
      if (a) line = `${a[1]} = (${a[2]})`;
    }
    if (r.comments && inClass && body !== '' && rnd(4) === 0) line += `  # note ${note++}`;
    if (r.comments && inClass && body !== '' && rnd(6) === 0) out.push(`${ind}# a comment line ${note++}`);
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

const COMPOUND = /^(if|elif|else|for|while|with|def|class|try|except|finally|async)\b|^@/;

/**
 * Writes canonical module text with `;`-separated statements: runs of simple statements at
 * one indentation are joined onto one line (`a = 1; b = 2`), and now and then the simple
 * body of an `if`/`for`/`while`/`with`/`else` goes on its header's line (`if c: a; b`).
 * The per-line choices follow `seed`. The result is the same Python program.
 */
export function joinWithSemicolons(text: string, seed: number): string {
  let s = seed >>> 0;
  const rnd = (k: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % k;
  };
  const lines = text.split('\n');
  const parsed = lines.map((l) => {
    const m = /^( *)(.*)$/.exec(l)!;
    return { indent: m[1]!.length, body: m[2]! };
  });
  const simple = (i: number): boolean => {
    const p = parsed[i];
    return (
      p !== undefined &&
      p.body !== '' &&
      p.indent > 4 &&
      !COMPOUND.test(p.body) &&
      !p.body.endsWith(':') &&
      !p.body.endsWith(',') &&
      !p.body.startsWith(')')
    );
  };
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const p = parsed[i]!;
    // A header whose body is only simple statements: now and then put the body on its line.
    if (/^(if|elif|else|for|while|with)\b/.test(p.body) && p.body.endsWith(':') && rnd(3) === 0) {
      let j = i + 1;
      while (j < lines.length && parsed[j]!.indent === p.indent + 4 && simple(j)) j++;
      const next = parsed[j];
      if (j > i + 1 && (next === undefined || next.body === '' || next.indent <= p.indent)) {
        out.push(
          `${' '.repeat(p.indent)}${p.body} ${parsed
            .slice(i + 1, j)
            .map((x) => x.body)
            .join('; ')}`,
        );
        i = j;
        continue;
      }
    }
    if (simple(i)) {
      let j = i + 1;
      while (j < lines.length && parsed[j]!.indent === p.indent && simple(j) && rnd(2) === 0) j++;
      out.push(
        `${' '.repeat(p.indent)}${parsed
          .slice(i, j)
          .map((x) => x.body)
          .join('; ')}`,
      );
      i = j;
      continue;
    }
    out.push(lines[i]!);
    i++;
  }
  return out.join('\n');
}
