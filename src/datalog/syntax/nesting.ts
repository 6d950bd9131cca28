// Bounds how deep the Ohm parser recurses: deep parenthesised terms are parsed in chunks.
//
// Ohm parses nested parentheses recursively (about twenty JavaScript frames per level), so a
// rule file with a few hundred nested parentheses would overflow the stack. Before the match,
// the text is scanned (strings and comments skipped) with an explicit stack; a parenthesised
// group whose content nests CHUNK levels deep and parses as a term on its own is parsed first
// and replaced by a placeholder name of the same length, so the offsets of everything else
// stay those of the file. Groups that are not terms (argument lists, disjunctions) are not
// replaced; beyond MAX_OTHER_NESTING such levels the file gets a located error.

/** Nesting of non-term groups (`(` `{`) Ohm is asked to parse in one piece. */
export const MAX_OTHER_NESTING = 100;
/** Nesting of any kind of group accepted at all (Soufflé's parser takes about 5,000). */
export const MAX_NESTING = 10000;
const CHUNK = 40;

interface Group {
  open: number;
  close: number;
  brace: boolean;
  height: number;
}

/** Where the scan stopped: the group that nests too deeply. */
export interface NestingProblem {
  start: number;
  end: number;
  message: string;
}

/** The text with deep term groups replaced by placeholders, and the placeholders' terms. */
export interface Flattened<T> {
  text: string;
  subs: Map<string, T>;
  problem?: NestingProblem;
}

/** Positions of `(` `)` `{` `}` outside strings and comments, in order. */
function brackets(text: string): number[] {
  const out: number[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i++;
      while (i < n && text.charCodeAt(i) !== 34 && text.charCodeAt(i) !== 10) i += text.charCodeAt(i) === 92 ? 2 : 1;
      i++;
    } else if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
      while (i < n && text.charCodeAt(i) !== 10) i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
      const e = text.indexOf('*/', i + 2);
      i = e < 0 ? n : e + 2;
    } else {
      if (c === 40 || c === 41 || c === 123 || c === 125) out.push(i);
      i++;
    }
  }
  return out;
}

/**
 * Replaces deep parenthesised terms by placeholders (`parseTerm` parses the group's content,
 * which starts at `offset` in the text, or returns undefined when it is not a term; it sees the
 * placeholders already in `subs`). Iterative throughout. The groups tried and found not to be
 * terms may hold at most about half the text (a binary file's random brackets nest deeply):
 * past that, no more are tried, and the parser reports the file's error.
 */
export function flattenDeepGroups<T>(
  text: string,
  parseTerm: (content: string, offset: number) => T | undefined,
  subs: Map<string, T>,
): Flattened<T> {
  const pos = brackets(text);
  let maxDepth = 0;
  let depth = 0;
  for (const p of pos) {
    const c = text[p];
    if (c === '(' || c === '{') {
      depth++;
      if (depth > MAX_NESTING)
        return { text, subs, problem: { start: p, end: p + 1, message: `groups are nested more than ${MAX_NESTING} levels deep here` } };
      if (depth > maxDepth) maxDepth = depth;
    } else if (depth > 0) depth--;
  }
  if (maxDepth <= CHUNK) return { text, subs };
  let chars = text;
  let budget = text.length / 2 + 100_000;
  const stack: Group[] = [];
  for (const p of pos) {
    const c = chars[p];
    if (c === '(' || c === '{') {
      stack.push({ open: p, close: -1, brace: c === '{', height: 1 });
      continue;
    }
    const g = stack.pop();
    if (g === undefined) continue; // unbalanced: the parser reports it
    g.close = p;
    if (!g.brace && g.height > CHUNK && budget > 0) {
      const term = parseTerm(chars.slice(g.open + 1, g.close), g.open + 1);
      if (term === undefined) budget -= g.close - g.open;
      else {
        const name = `__ptolog_nest${subs.size}`;
        const width = g.close - g.open - 1;
        if (name.length <= width) {
          subs.set(name, term);
          chars = `${chars.slice(0, g.open + 1)}${name.padEnd(width, ' ')}${chars.slice(g.close)}`;
          g.height = 1;
        }
      }
    }
    if (g.height > MAX_OTHER_NESTING) {
      return {
        text,
        subs,
        problem: {
          start: g.open,
          end: g.close + 1,
          message: `parentheses around literals or argument lists are nested more than ${MAX_OTHER_NESTING} levels deep here`,
        },
      };
    }
    const parent = stack[stack.length - 1];
    if (parent && parent.height < g.height + 1) parent.height = g.height + 1;
  }
  return { text: chars, subs };
}

/** The depth of a tree given its children function, computed without recursion. */
export function treeDepth<T>(root: T, children: (t: T) => readonly T[]): { depth: number; deepest: T } {
  let best = { depth: 1, deepest: root };
  const stack: Array<[T, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [t, d] = stack.pop()!;
    if (d > best.depth) best = { depth: d, deepest: t };
    for (const c of children(t)) stack.push([c, d + 1]);
  }
  return best;
}
