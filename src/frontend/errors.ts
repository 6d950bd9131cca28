/**
 * Turns the parser's syntax error (a SyntaxFault: a position in the pre-tokenized piece and
 * what was expected there) into one located `syntax-error` diagnostic: the position mapped
 * back to the original text, and a sentence naming what was expected (not a list of
 * characters).
 */
import { type Diagnostic, errorAt } from '../report/diagnostic.js';
import type { SourceText } from '../report/source.js';
import {
  type SyntaxFault,
  X_ARROW,
  X_AS,
  X_BLOCK,
  X_CLASS,
  X_COLON,
  X_COLON_CLASS,
  X_COLON_DEF,
  X_COLON_ELIF,
  X_COLON_ELSE,
  X_COLON_FOR,
  X_COLON_IF,
  X_COLON_WHILE,
  X_COLON_WITH,
  X_COMMA,
  X_DEDENT,
  X_DEF,
  X_ELSE,
  X_END,
  X_EOL,
  X_EQ,
  X_EXPR,
  X_FOR,
  X_IN,
  X_LPAREN,
  X_NAME,
  X_RBRACE,
  X_RBRACKET,
  X_RPAREN,
  X_STMT,
} from './hand-cursor.js';
import { type Chunk, OffsetMap } from './layout.js';

/** What each expectation bit is called, in the order a sentence lists them. */
const LABELS: readonly (readonly [number, string])[] = [
  [X_STMT, 'a statement'],
  [X_EXPR, 'an expression'],
  [X_COLON_IF, "':' after the if condition"],
  [X_COLON_ELIF, "':' after the elif condition"],
  [X_COLON_ELSE, "':' after else"],
  [X_COLON_WHILE, "':' after the while condition"],
  [X_COLON_FOR, "':' after the for header"],
  [X_COLON_WITH, "':' after the with header"],
  [X_COLON_DEF, "':' after the function signature"],
  [X_COLON_CLASS, "':' after the class header"],
  [X_ARROW, "'->'"],
  [X_BLOCK, 'an indented block'],
  [X_RPAREN, "')'"],
  [X_NAME, 'a name'],
  [X_RBRACKET, "']'"],
  [X_RBRACE, "'}'"],
  [X_IN, "'in'"],
  [X_COMMA, "','"],
  [X_COLON, "':'"],
  [X_EQ, "'='"],
  [X_AS, "'as'"],
  [X_ELSE, "'else'"],
  [X_FOR, "'for'"],
  [X_LPAREN, "'('"],
  [X_DEF, "'def'"],
  [X_CLASS, "'class'"],
  [X_EOL, 'end of line'],
  [X_DEDENT, 'the end of the indented block'],
  [X_END, 'end of input'],
];

function joinOr(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** The sentence describing what the parser expected (`mask`: X_* bits). */
export function expectedMessage(mask: number): string {
  if (mask === X_END) return 'unexpected text';
  let m = mask;
  // A statement can start with an expression; a statement or a block's end is the same choice.
  if (m & X_STMT) m &= ~(X_EXPR | X_DEDENT);
  if (m !== X_END) m &= ~X_END;
  const items: string[] = [];
  for (const [bit, label] of LABELS) if (m & bit) items.push(label);
  if (items.length === 0) return 'invalid syntax';
  return `expected ${joinOr(items)}`;
}

/** Span of the token at `pos` of the original text (a word, or one character). */
function tokenSpan(text: string, pos: number): { start: number; end: number } {
  let end = pos;
  while (end < text.length && /[A-Za-z0-9_]/.test(text[end]!)) end++;
  if (end === pos && pos < text.length && text[pos] !== '\n' && text[pos] !== '\r') end = pos + 1;
  return { start: pos, end };
}

/** The diagnostic for syntax error `fault` of `chunk`. */
export function syntaxDiagnostic(source: SourceText, chunk: Chunk, fault: SyntaxFault): Diagnostic {
  const pos = fault.pos;
  const kind = OffsetMap.sentinelAt(chunk.out, pos);
  const orig = chunk.map.start(pos);
  if (kind === 'indent') {
    const t = tokenSpan(source.text, orig);
    return errorAt(source, t.start, t.end, 'syntax-error', 'unexpected indent');
  }
  let message = expectedMessage(fault.expected);
  if (kind === null) {
    const rest = chunk.out.slice(pos, pos + 5);
    if (/^(else|elif)\b/.test(rest) && message === 'expected a statement') {
      message = `'${/^(else|elif)/.exec(rest)![1]}' without a matching 'if' at this indentation`;
    }
    const t = tokenSpan(source.text, orig);
    return errorAt(source, t.start, t.end, 'syntax-error', message);
  }
  if ((kind === 'newline' || kind === 'end') && (message === 'expected a statement' || message === 'unexpected text')) {
    message = 'unexpected end of line';
  }
  return errorAt(source, orig, orig, 'syntax-error', message);
}
