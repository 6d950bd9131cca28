// Parses a tuple written on the command line, e.g. `path(1, 5)` or `edge("a", b)`.
import { DiagnosticError } from '../../report/diagnostic.js';
import type { RuleProgram } from '../check/program.js';
import type { Value } from '../syntax/ast.js';
import { parseInt64 } from '../syntax/int64.js';

function fail(message: string, fix: string): never {
  throw new DiagnosticError([{ severity: 'error', code: 'bad-tuple', message, fix }]);
}

/** Splits the argument text at top-level commas, honouring double-quoted strings. */
function splitArgs(text: string): Array<{ raw: string; quoted: boolean }> {
  const out: Array<{ raw: string; quoted: boolean }> = [];
  if (text.trim() === '') return out;
  let i = 0;
  while (i <= text.length) {
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] === '"') {
      let j = i + 1;
      let s = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < text.length) {
          const c = text[j + 1]!;
          s += c === 'n' ? '\n' : c === 't' ? '\t' : c;
          j += 2;
        } else s += text[j++];
      }
      if (j >= text.length) fail(`unterminated string in ${text}`, 'close the string with a `"`.');
      out.push({ raw: s, quoted: true });
      i = j + 1;
      while (text[i] === ' ' || text[i] === '\t') i++;
    } else {
      const j = text.indexOf(',', i);
      const end = j < 0 ? text.length : j;
      out.push({ raw: text.slice(i, end).trim(), quoted: false });
      i = end;
    }
    if (i >= text.length) break;
    if (text[i] !== ',') fail(`expected \`,\` in ${text}`, 'separate the values with commas.');
    i++;
  }
  return out;
}

/** The relation name and the values of a tuple like `rel(v1, v2)`, checked against the program. */
export function parseTupleText(program: RuleProgram, text: string): { rel: string; values: Value[] } {
  return parseTuple(program, text, false) as { rel: string; values: Value[] };
}

/** As parseTupleText, where an unquoted `_` is a wildcard (null: any value), as in `rel(1, _)`. */
export function parsePatternText(program: RuleProgram, text: string): { rel: string; values: (Value | null)[] } {
  return parseTuple(program, text, true);
}

function parseTuple(program: RuleProgram, text: string, wildcard: boolean): { rel: string; values: (Value | null)[] } {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)\s*$/.exec(text);
  if (!m) fail(`cannot read the tuple ${JSON.stringify(text)}`, 'write it like `path(1, 5)` or `edge("a", "b")` (quote it in the shell).');
  const rel = m[1]!;
  const info = program.relation(rel);
  if (!info) fail(`the relation ${rel} is not declared by the rule program`, 'check the relation name.');
  const args = splitArgs(m[2]!);
  if (args.length !== info.kinds.length) {
    fail(
      `${rel} has ${info.kinds.length} column${info.kinds.length === 1 ? '' : 's'} but the tuple has ${args.length}`,
      `write ${rel}(${info.attrs.join(', ')}).`,
    );
  }
  const values = args.map((a, i): Value | null => {
    if (wildcard && !a.quoted && a.raw === '_') return null;
    if (info.kinds[i] === 'symbol') return a.raw;
    const v = a.quoted ? null : parseInt64(a.raw);
    if (v === null)
      fail(
        `column ${i + 1} (${info.attrs[i]}) of ${rel} is a number but got ${JSON.stringify(a.raw)}`,
        `write a signed 64-bit integer${wildcard ? ', or _ for any value' : ''}.`,
      );
    return v;
  });
  return { rel, values };
}
