// Soufflé-compatible fact files: `<rel>.facts` (tab-separated) in, `<rel>.csv` (tab-separated) out.
import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
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

/** Calls `onLine` for each line of a file, streaming it in 1 MiB chunks. */
function forEachLine(path: string, onLine: (line: string, n: number) => void): void {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    const dec = new StringDecoder('utf8');
    let rest = '';
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, 0, CHUNK, null);
      const text = rest + (got > 0 ? dec.write(buf.subarray(0, got)) : dec.end());
      let start = 0;
      for (;;) {
        const nl = text.indexOf('\n', start);
        if (nl < 0) break;
        onLine(text.slice(start, nl), ++n);
        start = nl + 1;
      }
      rest = text.slice(start);
      if (got === 0) break;
    }
    if (rest.length > 0) onLine(rest, ++n);
  } finally {
    closeSync(fd);
  }
}

/** True when `c` is a decimal integer with an optional sign (what `Number` then reads exactly). */
function isInteger(c: string): boolean {
  let i = c.charCodeAt(0) === 43 || c.charCodeAt(0) === 45 ? 1 : 0;
  if (i >= c.length) return false;
  for (; i < c.length; i++) {
    const d = c.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return true;
}

/** Loads `<dir>/<rel>.facts` for one relation into `db`; throws a diagnostic for a bad line. */
export function readFactsFile(db: FactDatabase, info: RelationInfo, path: string): void {
  const arity = info.kinds.length;
  const row: Value[] = new Array<Value>(arity);
  forEachLine(path, (raw, n) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.length === 0 && arity > 0) return;
    const cols = arity === 0 ? [] : line.split('\t');
    if (cols.length !== arity) {
      factError(path, n, `expected ${arity} tab-separated column${arity === 1 ? '' : 's'} for ${info.name} but found ${cols.length}`, `write one value per column of ${info.name}(${info.attrs.join(', ')}), separated by tabs.`);
    }
    for (let i = 0; i < arity; i++) {
      const c = cols[i]!;
      if (info.kinds[i] === 'number') {
        if (!isInteger(c)) factError(path, n, `column ${i + 1} (${info.attrs[i]}) is a number but found ${JSON.stringify(c)}`, 'write a decimal integer.');
        const v = parseInt64(c);
        if (v === null) factError(path, n, `the number ${c} does not fit in 64 bits`, `use a value between ${INT64_MIN} and ${INT64_MAX}.`);
        row[i] = v;
      } else row[i] = c;
    }
    db.insertInto(info, row);
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
