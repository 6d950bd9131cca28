// Reuse of the large typed arrays an evaluation replaces (a relation's rows and dedup set when they
// grow, an index's table and chains when it grows or is freed). Every new ArrayBuffer counts as
// external memory for V8, and each 64 MB of it starts a full garbage collection, which marks the
// whole JS heap (a million-statement program's IR): reusing the buffers evaluation itself let go
// of avoids most of those collections. Arrays are retired when replaced but handed out again only
// after `recycle`, at a point where no compiled join holds a reference to an old array.

/** Arrays smaller than this are allocated plainly (never pooled). */
const MIN_BYTES = 1 << 16;

function pow2Bytes(n: number): number {
  let size = MIN_BYTES;
  while (size < n) size *= 2;
  return size;
}

/** A pool of power-of-two sized ArrayBuffers, owned by one evaluation. */
export class BufferPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  private readonly retired: ArrayBuffer[] = [];
  private held = 0;

  /** `maxBytes`: at most this many bytes are kept for reuse (the rest is left to the collector). */
  constructor(readonly maxBytes: number) {}

  private take(bytes: number): ArrayBuffer | undefined {
    const list = this.free.get(bytes);
    const b = list?.pop();
    if (b) this.held -= b.byteLength;
    return b;
  }

  /** An Int32Array of `length` values, zero-filled unless `zero` is false (the caller writes every value it reads). */
  int32(length: number, zero = true): Int32Array {
    const bytes = length * 4;
    if (bytes < MIN_BYTES) return new Int32Array(length);
    const size = pow2Bytes(bytes);
    const b = this.take(size);
    if (!b) return new Int32Array(new ArrayBuffer(size), 0, length);
    const a = new Int32Array(b, 0, length);
    if (zero) a.fill(0);
    return a;
  }

  /** A Float64Array of `length` values, zero-filled unless `zero` is false. */
  float64(length: number, zero = true): Float64Array {
    const bytes = length * 8;
    if (bytes < MIN_BYTES) return new Float64Array(length);
    const size = pow2Bytes(bytes);
    const b = this.take(size);
    if (!b) return new Float64Array(new ArrayBuffer(size), 0, length);
    const a = new Float64Array(b, 0, length);
    if (zero) a.fill(0);
    return a;
  }

  /** Takes back an array its owner no longer uses (reused only after the next `recycle`). */
  retire(a: Int32Array | Float64Array): void {
    const b = a.buffer;
    // Only buffers this pool hands out: a power of two of at least MIN_BYTES, viewed from the start.
    if (a.byteOffset !== 0 || b.byteLength < MIN_BYTES || (b.byteLength & (b.byteLength - 1)) !== 0 || !(b instanceof ArrayBuffer)) return;
    this.retired.push(b);
  }

  /** Makes the retired buffers available; call only where no old array is still being read. */
  recycle(): void {
    for (const b of this.retired) {
      if (this.held + b.byteLength > this.maxBytes) continue;
      let list = this.free.get(b.byteLength);
      if (!list) this.free.set(b.byteLength, (list = []));
      list.push(b);
      this.held += b.byteLength;
    }
    this.retired.length = 0;
  }

  /** Bytes kept for reuse. */
  get bytes(): number {
    return this.held;
  }
}
