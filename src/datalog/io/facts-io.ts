// Soufflé-compatible fact files: `<rel>.facts` (tab-separated) in, `<rel>.csv` (tab-separated) out.
import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { type Diagnostic, DiagnosticError } from '../../report/diagnostic.js';
import type { EvalResult } from '../exec/result.js';
import type { FactDatabase } from '../storage/database.js';
import type { RelationSchema } from '../storage/schema.js';
import type { Value } from '../syntax/ast.js';
import { INT64_MAX, INT64_MIN, parseInt64 } from '../syntax/int64.js';
import { writeRows } from './write-rows.js';

const CHUNK = 1 << 20;

function factError(path: string, line: number, message: string, fix: string): never {
  const d: Diagnostic = { severity: 'error', code: 'bad-fact', message, path: `${path}:${line}`, fix };
  throw new DiagnosticError([d]);
}

/**
 * Calls `onBlock(buf, start, stop, n)` with runs of whole lines: bytes `start` to `stop` of `buf`,
 * each line ending with a newline (a last line without one is given one), `n` the number of the
 * first (from 1). Reads the file in 1 MiB chunks into one reused buffer (grown only for a longer
 * line). `onBlock` returns how many lines it read.
 */
function forEachBlock(path: string, onBlock: (buf: Buffer, start: number, stop: number, n: number) => number): void {
  const fd = openSync(path, 'r');
  try {
    let buf = Buffer.allocUnsafe(CHUNK);
    let have = 0; // bytes of buf holding unread text (an unfinished line at its start)
    let n = 1;
    for (;;) {
      if (have === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const got = readSync(fd, buf, have, buf.length - have, null);
      if (got === 0) break;
      const stop = have + got;
      const last = buf.lastIndexOf(10, stop - 1);
      if (last < have) {
        have = stop;
        continue;
      }
      n += onBlock(buf, 0, last + 1, n);
      have = stop - last - 1;
      if (have > 0) buf.copy(buf, 0, last + 1, stop);
    }
    if (have > 0) {
      if (have === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length + 1);
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      buf[have] = 10;
      onBlock(buf, 0, have + 1, n);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The integer written in bytes `s` to `e` of `buf` (decimal, an optional sign) when it has at
 * most 15 characters (exact in a double), NaN when it is not an integer, undefined when longer.
 */
function smallInteger(buf: Buffer, s: number, e: number): number | undefined {
  if (e - s > 15) return undefined;
  let i = s;
  const sign = buf[i];
  if (sign === 45 || sign === 43) i++;
  if (i >= e) return NaN;
  let v = 0;
  for (; i < e; i++) {
    const d = buf[i]! - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return sign === 45 ? 0 - v : v;
}

/** Loads `<dir>/<rel>.facts` for one relation into `db`; throws a diagnostic for a bad line. */
export function readFactsFile(db: FactDatabase, info: RelationSchema, path: string): void {
  const arity = info.kinds.length;
  const num = info.kinds.map((k) => k === 'number');
  const symbols = db.symbols;
  const numbers = symbols.numbers;
  // Each row encoded as the database stores it (symbol ids, int64.ts numbers): no value objects.
  const t = new Float64Array(Math.max(1, arity));
  const columns = (buf: Buffer, s: number, e: number): number => {
    let c = 1;
    for (let i = s; i < e; i++) if (buf[i] === 9) c++;
    return c;
  };
  /** One line (bytes `s` to `e`, without its line end) read with every check: a line the fast path leaves. */
  const slowLine = (buf: Buffer, s: number, e: number, n: number): void => {
    if (arity === 0) {
      db.insertEncoded(info, t);
      return;
    }
    if (e === s) return;
    let at = s;
    for (let i = 0; i < arity; i++) {
      let tab = at;
      while (tab < e && buf[tab] !== 9) tab++;
      const last = i + 1 === arity;
      if (tab < e === last) {
        const found = columns(buf, s, e);
        factError(
          path,
          n,
          `expected ${arity} tab-separated column${arity === 1 ? '' : 's'} for ${info.name} but found ${found}`,
          `write one value per column of ${info.name}(${info.attrs.join(', ')}), separated by tabs.`,
        );
      }
      const end = tab;
      if (num[i]) {
        const v = smallInteger(buf, at, end);
        if (v === undefined || Number.isNaN(v)) {
          const c = buf.toString('utf8', at, end);
          if (Number.isNaN(v) || !/^[+-]?[0-9]+$/.test(c))
            factError(path, n, `column ${i + 1} (${info.attrs[i]}) is a number but found ${JSON.stringify(c)}`, 'write a decimal integer.');
          const big = parseInt64(c);
          if (big === null)
            factError(path, n, `the number ${c} does not fit in 64 bits`, `use a value between ${INT64_MIN} and ${INT64_MAX}.`);
          t[i] = numbers.encode(big);
        } else t[i] = v + 0; // -0 is 0
      } else t[i] = symbols.intern(buf.toString('utf8', at, end));
      at = end + 1;
    }
    db.insertEncoded(info, t);
  };
  // The common line — plain decimal numbers of at most 15 characters, symbols without a carriage
  // return, the right number of columns — is read in one pass over its bytes; any other line
  // (empty, bad, a long number, `\r\n`) goes through slowLine, which reads it or reports it.
  forEachBlock(path, (buf, start, stop, n0) => {
    let n = n0;
    let s = start;
    while (s < stop) {
      let p = s;
      let ok = arity > 0 && buf[s] !== 10;
      for (let c = 0; ok && c < arity; c++) {
        const end = c + 1 === arity ? 10 : 9;
        if (num[c]) {
          let q = p;
          const sign = buf[q];
          if (sign === 45 || sign === 43) q++;
          const digits = q;
          let v = 0;
          for (;;) {
            const x = buf[q]! - 48;
            if (x < 0 || x > 9) break;
            v = v * 10 + x;
            q++;
          }
          if (q === digits || q - p > 15 || buf[q] !== end) {
            ok = false;
            break;
          }
          t[c] = sign === 45 ? 0 - v + 0 : v;
          p = q + 1;
        } else {
          let q = p;
          let high = 0;
          for (;;) {
            const x = buf[q]!;
            if (x === 9 || x === 10) break;
            high |= x;
            q++;
          }
          if (buf[q] !== end || (end === 10 && q > p && buf[q - 1] === 13)) {
            ok = false;
            break;
          }
          t[c] = symbols.intern(buf.toString(high < 128 ? 'latin1' : 'utf8', p, q));
          p = q + 1;
        }
      }
      if (ok) {
        db.insertEncoded(info, t);
        s = p;
      } else {
        const nl = buf.indexOf(10, s);
        slowLine(buf, s, nl > s && buf[nl - 1] === 13 ? nl - 1 : nl, n);
        s = nl + 1;
      }
      n++;
    }
    return n - n0;
  });
}

/**
 * Loads the `.facts` file of every `.input` relation from `dir` — with `only`, of those input
 * relations alone (e.g. `relationsRead(program)`: what evaluation of the outputs reads).
 */
export function readFactsDir(db: FactDatabase, dir: string, only?: ReadonlySet<string>): void {
  for (const info of db.program.relations) {
    if (!info.input || (only && !only.has(info.name))) continue;
    const path = join(dir, `${info.name}.facts`);
    if (!existsSync(path)) {
      throw new DiagnosticError([
        {
          severity: 'error',
          code: 'missing-facts',
          message: `cannot read the facts of the input relation ${info.name}: ${path} does not exist`,
          path,
          fix: `create ${path} (it may be empty) or pass the right directory with -F.`,
        },
      ]);
    }
    readFactsFile(db, info, path);
  }
}

function fieldText(v: Value): string {
  return typeof v === 'string' ? v : String(v);
}

/** Writes `<dir>/<rel>.csv` (tab-separated, sorted) for every `.output` relation. */
export function writeOutputs(result: EvalResult, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const info of result.program.relations) {
    if (!info.output) continue;
    const path = join(dir, `${info.name}.csv`);
    const fd = openSync(path, 'w');
    try {
      writeRows(fd, result, info);
    } finally {
      closeSync(fd);
    }
    written.push(path);
  }
  return written;
}

/** The `.output` relations as Soufflé prints them for `-D -`. */
export function formatOutputs(result: EvalResult): string {
  const parts: string[] = [];
  for (const info of result.program.relations) {
    if (!info.output) continue;
    const rows = result.tuples(info.name).map((t) => t.map(fieldText).join('\t'));
    parts.push(`---------------\n${info.name}\n===============\n${rows.map((r) => `${r}\n`).join('')}===============\n`);
  }
  return parts.join('');
}
