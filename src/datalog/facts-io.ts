// Soufflé-compatible fact files: `<rel>.facts` (tab-separated) in, `<rel>.csv` (tab-separated) out.
import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticError, type Diagnostic } from '../report/diagnostic.js';
import type { Value } from './ast.js';
import type { FactDatabase } from './database.js';
import type { RelationInfo } from './program.js';
import type { EvalResult } from './result.js';
import { INT64_MAX, INT64_MIN, parseInt64 } from './int64.js';
import { writeRows } from './write-rows.js';

const CHUNK = 1 << 20;

function factError(path: string, line: number, message: string, fix: string): never {
  const d: Diagnostic = { severity: 'error', code: 'bad-fact', message, path: `${path}:${line}`, fix };
  throw new DiagnosticError([d]);
}

/**
 * Calls `onLine(buf, start, end, n)` for each line of a file (bytes `start` to `end` of `buf`,
 * without the newline or a carriage return before it; `n` counts from 1), reading it in 1 MiB
 * chunks into one reused buffer (grown only for a longer line).
 */
function forEachLine(path: string, onLine: (buf: Buffer, start: number, end: number, n: number) => void): void {
  const fd = openSync(path, 'r');
  try {
    let buf = Buffer.allocUnsafe(CHUNK);
    let have = 0; // bytes of buf holding unread text (an unfinished line at its start)
    let n = 0;
    const line = (start: number, nl: number): void => {
      const end = nl > start && buf[nl - 1] === 13 ? nl - 1 : nl;
      onLine(buf, start, end, ++n);
    };
    for (;;) {
      if (have === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const got = readSync(fd, buf, have, buf.length - have, null);
      if (got === 0) break;
      const stop = have + got;
      const view = buf.subarray(0, stop);
      let start = 0;
      for (let nl = view.indexOf(10, have); nl >= 0; nl = view.indexOf(10, start)) {
        line(start, nl);
        start = nl + 1;
      }
      have = stop - start;
      if (have > 0 && start > 0) buf.copy(buf, 0, start, stop);
    }
    if (have > 0) line(0, have);
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
export function readFactsFile(db: FactDatabase, info: RelationInfo, path: string): void {
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
  forEachLine(path, (buf, s, e, n) => {
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
      if ((tab < e) === last) {
        const found = columns(buf, s, e);
        factError(path, n, `expected ${arity} tab-separated column${arity === 1 ? '' : 's'} for ${info.name} but found ${found}`, `write one value per column of ${info.name}(${info.attrs.join(', ')}), separated by tabs.`);
      }
      const end = tab;
      if (num[i]) {
        const v = smallInteger(buf, at, end);
        if (v === undefined || Number.isNaN(v)) {
          const c = buf.toString('utf8', at, end);
          if (Number.isNaN(v) || !/^[+-]?[0-9]+$/.test(c)) factError(path, n, `column ${i + 1} (${info.attrs[i]}) is a number but found ${JSON.stringify(c)}`, 'write a decimal integer.');
          const big = parseInt64(c);
          if (big === null) factError(path, n, `the number ${c} does not fit in 64 bits`, `use a value between ${INT64_MIN} and ${INT64_MAX}.`);
          t[i] = numbers.encode(big);
        } else t[i] = v + 0; // -0 is 0
      } else t[i] = symbols.intern(buf.toString('utf8', at, end));
      at = end + 1;
    }
    db.insertEncoded(info, t);
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
        { severity: 'error', code: 'missing-facts', message: `cannot read the facts of the input relation ${info.name}: ${path} does not exist`, path, fix: `create ${path} (it may be empty) or pass the right directory with -F.` },
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
