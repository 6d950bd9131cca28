/**
 * Number and string literals of the DSL: the spelling check and the value, for the DSL
 * parser.
 */
import type { Expr, Span } from '../ir/nodes.js';
import type { Reporter } from './build.js';

const DIGITS = String.raw`\d(?:_?\d)*`;
/** A decimal integer without underscores, short enough to be exact as a double. */
const PLAIN_INT = /^(?:0|[1-9][0-9]*)$/;
const INT_RE = /^(?:0(?:_?0)*|[1-9](?:_?\d)*|0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+)$/;
const FLOAT_RE = new RegExp(String.raw`^(?:(?:(?:${DIGITS})?\.${DIGITS}|${DIGITS}\.)(?:[eE][+-]?${DIGITS})?|${DIGITS}[eE][+-]?${DIGITS})$`);

/** The Int / Float of a run of number characters; a bad spelling or a complex number is reported. */
export function parseNumber(text: string, span: Span, report: Reporter): Expr {
  if (text.length <= 15 && PLAIN_INT.test(text)) return { kind: 'Int', value: Number(text), start: span.start, end: span.end };
  const imag = /[jJ]$/.test(text);
  const body = imag ? text.slice(0, -1) : text;
  const isInt = INT_RE.test(body);
  const isFloat = !isInt && FLOAT_RE.test(body);
  if (!isInt && !isFloat && !(imag && /^\d(?:_?\d)*$/.test(body))) {
    return report.syntax(span, `'${text}' is not a valid number`);
  }
  if (imag) return report.unsupported(span, 'complex numbers are not supported inside a @pl.program');
  const t = body.replace(/_/g, '');
  if (isFloat) return { kind: 'Float', value: Number(t), text, start: span.start, end: span.end };
  return { kind: 'Int', value: Number(BigInt(t)), start: span.start, end: span.end };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\n': '',
};

/** True when a string literal (prefix and quotes included) is an f-string. */
export function isFString(raw: string): boolean {
  const q = raw.search(/['"]/);
  return q > 0 && /[fF]/.test(raw.slice(0, q));
}

/**
 * The value of one string literal (prefix and quotes included); bytes are reported. An f-string's
 * value is its text between the quotes, escapes decoded and `{...}` kept (PyPTO evaluates it in
 * `pl.static_print`; ptolog keeps it to print it back, see StrExpr.fstring).
 */
export function decodeString(raw: string, span: Span, report: Reporter): string {
  const m = /^([a-zA-Z]*)('''|"""|'|")/.exec(raw)!;
  const prefix = m[1]!.toLowerCase();
  const q = m[2]!;
  if (prefix.includes('b')) return report.unsupported(span, 'bytes literals are not supported inside a @pl.program');
  const body = raw.slice(m[0].length, raw.length - q.length);
  if (prefix.includes('r')) return body.replace(/\r\n?/g, '\n');
  if (!body.includes('\\') && !body.includes('\r')) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      if (c === '\r') {
        // Python reads \r\n and a lone \r in the source as one \n.
        if (body[i + 1] !== '\n') out += '\n';
        continue;
      }
      out += c;
      continue;
    }
    const d = body[i + 1] ?? '';
    if (d === '\r') {
      i += body[i + 2] === '\n' ? 2 : 1;
      continue;
    }
    if (d in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[d];
      i++;
    } else if (/[0-7]/.test(d)) {
      const o = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0];
      out += String.fromCodePoint(parseInt(o, 8));
      i += o.length;
    } else if (d === 'x' && /^[0-9a-fA-F]{2}/.test(body.slice(i + 2))) {
      out += String.fromCodePoint(parseInt(body.slice(i + 2, i + 4), 16));
      i += 3;
    } else if (d === 'u' && /^[0-9a-fA-F]{4}/.test(body.slice(i + 2))) {
      out += String.fromCodePoint(parseInt(body.slice(i + 2, i + 6), 16));
      i += 5;
    } else if (d === 'U' && /^[0-9a-fA-F]{8}/.test(body.slice(i + 2))) {
      const cp = parseInt(body.slice(i + 2, i + 10), 16);
      out += cp <= 0x10ffff ? String.fromCodePoint(cp) : body.slice(i, i + 10);
      i += 9;
    } else {
      out += c;
    }
  }
  return out;
}
