// Turns an Ohm match failure into a located syntax-error diagnostic with a readable sentence.
import type { FailedMatchResult as MatchResult } from 'ohm-js';
import { type Diagnostic, errorAt } from '../../report/diagnostic.js';
import type { SourceText } from '../../report/source.js';

interface Failure {
  getText(): string;
}

const LITERAL_STARTS = ['!', 'a relation name'];
const TERM_STARTS = ['a variable', 'a number', 'a string', '_', 'count', 'min', 'max', 'sum', '(', '-', 'a functor'];

/** The expected items at the failure position, with the common groups collapsed into words. */
function expectedItems(m: MatchResult): string[] {
  const failures = (m as unknown as { getRightmostFailures(): Failure[] }).getRightmostFailures();
  let items = [...new Set(failures.map((f) => f.getText()))];
  const has = (xs: string[]) => xs.every((x) => items.includes(x));
  const drop = (xs: string[]) => (items = items.filter((i) => !xs.includes(i)));
  if (has(LITERAL_STARTS) && has(['a variable'])) {
    drop([...LITERAL_STARTS, ...TERM_STARTS, 'contains', 'match']);
    items.unshift('a body literal (an atom, a negated atom `!r(...)` or a comparison)');
  } else if (has(['a variable', 'a number', 'a string'])) {
    drop(TERM_STARTS);
    items.unshift('a term (a variable, a constant, `_`, an arithmetic expression, a functor or an aggregate)');
  }
  // After `!`: an atom or `!contains(...)`; the relation name says enough.
  if (has(['a relation name', 'contains'])) drop(['contains', 'match']);
  const ops = ['+', '-', '*', '/', '%'];
  if (has(ops)) {
    drop(ops);
    items.push('an arithmetic operator');
  }
  return items.map((i) => (/^an? /.test(i) ? i : `\`${i}\``));
}

function joinOr(items: string[]): string {
  if (items.length <= 1) return items[0] ?? 'something else';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function fixFor(items: string[], found: string): string {
  if (items.includes('`.`')) return 'end every fact and rule with a `.`; separate body literals with `,`.';
  if (items.some((i) => i.startsWith('a body literal'))) return 'write a literal after `:-` and after each `,`, or remove the extra `,`.';
  if (items.includes('a relation name')) return 'name the relation with an identifier such as `edge` (letters, digits and `_`).';
  if (items.includes('`:`')) return 'write each attribute as `name: type`, for example `x: number`.';
  if (found === '"' || found === '\n') return 'close the string with a `"` on the same line.';
  return "rewrite this part in Soufflé's syntax (see `.decl`, facts `r(1).` and rules `h(X) :- b(X).`).";
}

/** A syntax-error diagnostic for a failed match of `source`. */
export function syntaxError(source: SourceText, m: MatchResult): Diagnostic {
  const pos = m.getRightmostFailurePosition();
  const items = expectedItems(m);
  const ch = source.text[pos];
  const found = ch === undefined ? 'the end of the file' : ch === '\n' ? 'the end of the line' : `\`${ch}\``;
  const end = ch === undefined || ch === '\n' ? pos : pos + 1;
  const lineRest = source.text.slice(pos + 1).split('\n')[0]!;
  if (ch === '"' && !lineRest.includes('"')) {
    return errorAt(source, pos, pos + 1 + lineRest.length, 'syntax-error', 'this string is not closed', {
      fix: 'close the string with a `"` on the same line (write `\\"` for a quote inside it).',
    });
  }
  // `foo(` where a term ends: a call of something that is not one of the functors.
  const callee =
    ch === '(' && items.includes('an arithmetic operator') ? /(?:^|[^.\w])([A-Za-z_]\w*)$/.exec(source.text.slice(0, pos)) : null;
  if (callee) {
    const name = callee[1]!;
    return errorAt(source, pos - name.length, pos, 'syntax-error', `\`${name}\` is not a functor`, {
      fix: 'the functors are cat, to_string, to_number, strlen, substr, min and max (`contains(sub, s)` is a body literal); user-defined functors are not supported.',
    });
  }
  return errorAt(source, pos, end, 'syntax-error', `expected ${joinOr(items)} but found ${found}`, {
    fix: fixFor(items, ch ?? ''),
  });
}
