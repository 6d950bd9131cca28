// Writes a relation's rows, sorted, as Soufflé's tab-separated `.csv` text: bytes straight into a
// buffer written in 64 KiB chunks, from the packed sorted keys when the rows fit one 32-bit key
// (no row order array, sequential reads), else through the sorted row order.
import { writeSync } from 'node:fs';
import type { RelationInfo } from '../check/program.js';
import type { EvalResult } from '../exec/result.js';
import type { PackedRows } from '../storage/order.js';

// 64 KiB: a buffer of fresh pages costs a page fault each, the write calls hardly anything.
const CHUNK = 1 << 16;

/** The decimal digits "00".."99" as character codes, two per entry. */
const PAIRS = ((): Uint8Array => {
  const p = new Uint8Array(200);
  for (let i = 0; i < 100; i++) {
    p[2 * i] = 48 + Math.floor(i / 10);
    p[2 * i + 1] = 48 + (i % 10);
  }
  return p;
})();

const MIN_INT32_TEXT = Uint8Array.from('-2147483648', (c) => c.charCodeAt(0));

/** Writes the decimal text of the 32-bit integer `v` into `buf` at `pos`; returns the new position. */
function putInt(buf: Uint8Array, pos: number, v: number): number {
  let x = v;
  if (x < 0) {
    if (x === -2147483648) {
      buf.set(MIN_INT32_TEXT, pos);
      return pos + MIN_INT32_TEXT.length;
    }
    buf[pos++] = 45;
    x = -x;
  }
  const len =
    x < 10
      ? 1
      : x < 100
        ? 2
        : x < 1000
          ? 3
          : x < 10000
            ? 4
            : x < 100000
              ? 5
              : x < 1000000
                ? 6
                : x < 10000000
                  ? 7
                  : x < 100000000
                    ? 8
                    : x < 1000000000
                      ? 9
                      : 10;
  let at = pos + len;
  while (x >= 100) {
    const q = (x / 100) | 0;
    const r = 2 * (x - q * 100);
    buf[--at] = PAIRS[r + 1]!;
    buf[--at] = PAIRS[r]!;
    x = q;
  }
  if (x >= 10) {
    buf[--at] = PAIRS[2 * x + 1]!;
    buf[--at] = PAIRS[2 * x]!;
  } else buf[--at] = 48 + x;
  return pos + len;
}

/** The texts of the numbers `min .. min + span - 1`: bytes `start[i]` to `start[i + 1]` are those of `min + i`. */
interface NumberTexts {
  start: Uint32Array;
  bytes: Uint8Array;
}

function numberTexts(min: number, span: number): NumberTexts {
  const start = new Uint32Array(span + 1);
  const bytes = new Uint8Array(span * 11);
  let pos = 0;
  for (let i = 0; i < span; i++) {
    start[i] = pos;
    pos = putInt(bytes, pos, min + i);
  }
  start[span] = pos;
  return { start, bytes };
}

/** A byte buffer flushed to `fd` in chunks. */
class Out {
  readonly buf = Buffer.allocUnsafe(CHUNK + 64);
  pos = 0;
  constructor(private readonly fd: number) {}

  flush(): void {
    if (this.pos > 0) writeSync(this.fd, this.buf, 0, this.pos);
    this.pos = 0;
  }

  /** Appends a symbol's text (written directly when longer than the buffer). */
  text(s: string): void {
    if (this.pos + s.length * 3 + 2 > this.buf.length) {
      this.flush();
      if (s.length * 3 + 2 > this.buf.length) {
        writeSync(this.fd, s);
        return;
      }
    }
    this.pos += this.buf.write(s, this.pos);
  }
}

/** Writes the rows of relation `info`, sorted, as tab-separated lines to `fd`. */
export function writeRows(fd: number, result: EvalResult, info: RelationInfo): void {
  const out = new Out(fd);
  const packed = result.packedRows(info.id);
  if (packed) {
    writePacked(out, result, info, packed);
    result.releasePacked(packed);
  } else writeOrdered(out, result, info);
  out.flush();
}

/** Writes rows decoded from their sorted keys. */
function writePacked(out: Out, result: EvalResult, info: RelationInfo, p: PackedRows): void {
  const a = p.cols.length;
  const n = result.storage[info.id]!.count;
  const sym = info.kinds.map((k) => k === 'symbol');
  const byRank = sym.includes(true) ? result.symbolOrder().byRank : null;
  const texts = result.symbols.texts();
  const weights = p.cols.map((c) => c.weight);
  const mins = p.cols.map((c) => c.min);
  // A number column of at most as many values as rows: each value's text made once, then copied.
  const cached = p.cols.map((c, i) => (!sym[i] && c.span <= Math.max(1024, n) ? numberTexts(c.min, c.span) : null));
  if (a === 2 && p.keys && cached[0] && cached[1]) {
    writePairs(out, p.keys, weights[0]!, cached[0], cached[1]);
    return;
  }
  const row = (key: number): void => {
    let rem = key;
    for (let c = 0; c < a; c++) {
      const w = weights[c]!;
      const digit = w === 1 ? rem : Math.floor(rem / w);
      rem -= digit * w;
      if (out.pos >= CHUNK) out.flush();
      if (c > 0) out.buf[out.pos++] = 9;
      const t = cached[c];
      if (t) {
        const buf = out.buf;
        let pos = out.pos;
        const end = t.start[digit + 1]!;
        for (let j = t.start[digit]!; j < end; j++) buf[pos++] = t.bytes[j]!;
        out.pos = pos;
      } else if (sym[c]) out.text(texts[byRank![mins[c]! + digit]!]!);
      else out.pos = putInt(out.buf, out.pos, mins[c]! + digit);
    }
    out.buf[out.pos++] = 10;
  };
  if (p.bits) {
    const bits = p.bits;
    for (let w = 0; w < bits.length; w++) {
      let x = bits[w]!;
      while (x !== 0) {
        const low = x & -x;
        x ^= low;
        row(w * 32 + 31 - Math.clz32(low));
      }
    }
  } else {
    const keys = p.keys!;
    for (let i = 0; i < keys.length; i++) row(keys[i]!);
  }
}

/** Writes rows of two number columns, each value's text cached, from their sorted keys (the key: first digit * `w0` + second). */
function writePairs(out: Out, keys: Uint32Array, w0: number, t0: NumberTexts, t1: NumberTexts): void {
  const buf = out.buf;
  const s0 = t0.start;
  const b0 = t0.bytes;
  const s1 = t1.start;
  const b1 = t1.bytes;
  let pos = out.pos;
  for (let i = 0; i < keys.length; i++) {
    if (pos >= CHUNK) {
      out.pos = pos;
      out.flush();
      pos = 0;
    }
    const k = keys[i]!;
    const x = Math.floor(k / w0);
    const y = k - x * w0;
    for (let j = s0[x]!, e = s0[x + 1]!; j < e; j++) buf[pos++] = b0[j]!;
    buf[pos++] = 9;
    for (let j = s1[y]!, e = s1[y + 1]!; j < e; j++) buf[pos++] = b1[j]!;
    buf[pos++] = 10;
  }
  out.pos = pos;
}

/** Writes rows through the sorted row order (rows that do not fit one key). */
function writeOrdered(out: Out, result: EvalResult, info: RelationInfo): void {
  const rel = result.storage[info.id]!;
  const a = rel.arity;
  const d = rel.data;
  const n = rel.count;
  const order = result.sortedRows(info.id);
  const texts = result.symbols.texts();
  const sym = info.kinds.map((k) => k === 'symbol');
  for (let i = 0; i < n; i++) {
    const base = order[i]! * a;
    for (let c = 0; c < a; c++) {
      if (out.pos >= CHUNK) out.flush();
      if (c > 0) out.buf[out.pos++] = 9;
      const v = d[base + c]!;
      if (sym[c]) out.text(texts[v]!);
      else if (v !== (v | 0))
        out.text(result.symbols.numbers.str(v)); // beyond 32 bits: a wide integer or a box
      else out.pos = putInt(out.buf, out.pos, v);
    }
    out.buf[out.pos++] = 10;
  }
}
