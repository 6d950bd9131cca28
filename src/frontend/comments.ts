/**
 * Comments kept for `fmt`, attached as PyPTO's parser attaches them (leading comments): a
 * `# ...` comment belongs to the first node after it in source order — a program, a function
 * or a statement — and a comment on a node's own lines (a simple statement's, a compound
 * statement's header, a function's decorators and `def` line) belongs to that node. Comments
 * after the last statement of a block go to the next statement of the function (or the next
 * function); those after the last statement of a program are dropped, as PyPTO drops
 * tail-of-block comments. A function without statements (an external `...` kernel, a docstring
 * only) keeps the comments of all its lines. A HOST SubWorker's body keeps its own comments in its text.
 *
 * Only comments inside a program (or kernel) or right before it are attached: the region of a
 * program starts after the last line of code before it. Comments at the top of the file,
 * before any code and not claimed by a program, are the module's header (a licence).
 */
import type { Commented, FunctionDef, Program, Stmt } from '../ir/nodes.js';
import { newlineAt } from './chars.js';
import type { LineTable } from './scan.js';
import { firstAtOrAfter } from './sorted.js';

interface Anchor {
  /** Comments starting at or before this offset (and after the previous anchor's) belong here. */
  keyEnd: number;
  node: Commented;
}

/** Attaches each comment of `text` to its program, function or statement; returns the module's header comments. */
export function attachComments(text: string, table: LineTable, programs: readonly Program[]): string[] {
  const comments = table.comments;
  if (comments.length === 0) return [];
  // Asked once per statement: a native search for LF when the text has no CR.
  const lfOnly = !text.includes('\r');
  const lineEnd = (offset: number): number => {
    if (lfOnly) {
      const j = text.indexOf('\n', offset);
      return j < 0 ? text.length : j;
    }
    let i = offset;
    while (i < text.length && newlineAt(text, i) === 0) i++;
    return i;
  };
  const logicalLineOf = (offset: number): number => {
    let lo = 0;
    let hi = table.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (table.start[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  /** Where the region of a node starting at `offset` begins: after the line of code before it. */
  const regionStart = (offset: number): number => {
    const l = logicalLineOf(offset);
    return l > 0 ? lineEnd(table.end[l - 1]!) : 0;
  };
  const commentText = (at: number): string => text.slice(at, lineEnd(at)).trimEnd();

  const claimed = new Set<number>();
  /** The nodes given comments, in order: their lists are shared once all are attached. */
  const commented: Commented[] = [];
  const assign = (from: number, to: number, anchors: readonly Anchor[], skip: readonly [number, number][]): void => {
    // First comment at or after `from`, then walk both lists together.
    const lo = firstAtOrAfter(comments, from);
    let a = 0;
    for (let k = lo; k < comments.length && comments[k]! <= to; k++) {
      const c = comments[k]!;
      claimed.add(k);
      if (skip.some(([s, e]) => c > s && c <= e)) continue;
      while (a < anchors.length && anchors[a]!.keyEnd < c) a++;
      const anchor = anchors[a];
      if (!anchor) continue;
      const node = anchor.node;
      if (node.comments === undefined) {
        node.comments = [];
        commented.push(node);
      }
      node.comments.push(commentText(c));
    }
  };

  const stmtAnchors = (body: readonly Stmt[], out: Anchor[]): void => {
    for (let i = 0; i < body.length; i++) {
      const s = body[i]!;
      switch (s.kind) {
        case 'If':
          out.push({ keyEnd: lineEnd(table.end[logicalLineOf(s.start)]!), node: s });
          stmtAnchors(s.then, out);
          stmtAnchors(s.orelse, out);
          break;
        case 'For':
        case 'While':
        case 'Scope':
          out.push({ keyEnd: lineEnd(table.end[logicalLineOf(s.start)]!), node: s });
          stmtAnchors(s.body, out);
          break;
        default:
          out.push({ keyEnd: lineEnd(s.end), node: s });
      }
    }
  };
  /** The end of the line that a run of decorator lines starting at `offset` decorates (`def` / `class`). */
  const headerEnd = (offset: number): number => {
    let l = logicalLineOf(offset);
    while (l + 1 < table.count && text.charCodeAt(table.start[l]!) === 64) l++;
    return lineEnd(table.end[l]!);
  };
  const funcAnchors = (f: FunctionDef, out: Anchor[], skip: [number, number][]): void => {
    const defEnd = headerEnd(f.start);
    // A function with no statement (external `...`, a docstring only): its lines' comments are its own.
    out.push({ keyEnd: f.body.length === 0 && !f.hostSource ? Math.max(defEnd, lineEnd(f.end)) : defEnd, node: f });
    if (f.hostSource) skip.push([defEnd, lineEnd(f.end)]);
    stmtAnchors(f.body, out);
  };

  for (const p of programs) {
    if (p.jit) {
      for (const f of p.functions) {
        const anchors: Anchor[] = [];
        const skip: [number, number][] = [];
        funcAnchors(f, anchors, skip);
        assign(regionStart(f.start), lineEnd(f.end), anchors, skip);
      }
      continue;
    }
    const anchors: Anchor[] = [{ keyEnd: headerEnd(p.start), node: p }];
    const skip: [number, number][] = [];
    for (const f of p.functions) funcAnchors(f, anchors, skip);
    assign(regionStart(p.start), lineEnd(p.end), anchors, skip);
  }

  shareCommentLists(commented);

  const firstCode = table.count > 0 ? table.start[0]! : text.length;
  const header: string[] = [];
  for (let k = 0; k < comments.length && comments[k]! < firstCode; k++) {
    if (!claimed.has(k)) header.push(commentText(comments[k]!));
  }
  return header;
}

/**
 * Equal comment lists become one frozen array (unrolled code repeats its comments line for
 * line; a list is never changed once attached, and a rewrite replaces rather than edits it).
 */
function shareCommentLists(nodes: readonly Commented[]): void {
  const shared = new Map<string, string[]>();
  for (const node of nodes) {
    const list = node.comments!;
    // Comments are single lines, so the joined text identifies the list.
    const key = list.length === 1 ? list[0]! : list.join('\n');
    const had = shared.get(key);
    if (had !== undefined) node.comments = had;
    else shared.set(key, (node.comments = Object.freeze(list) as string[]));
  }
}
