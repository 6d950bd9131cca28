// Where one run's large typed arrays live: ArrayBuffers reserved up front (or as few, large ones
// as the run turns out to need), cut into power-of-two blocks by a buddy allocator. Every new
// ArrayBuffer counts as external memory for V8, and each 64 MB of it starts a full garbage
// collection that marks the whole JS heap (a million-statement program's IR, over a second each
// time): arrays taken from reserved buffers start none. A reserved buffer costs address space
// only until its pages are written (the kernel maps them lazily), so blocks are handed out
// lowest address first and freed blocks merge with their buddies, to write again the pages
// already written; `trim` lets the collector take back the buffers no array uses any more.
// Arrays below MIN_BYTES are allocated plainly (they are not worth a block).
//
// Lifetimes are explicit: `release` makes a block reusable at once; `retire` only at the next
// `recycle`, for arrays a running join may still read (evaluation recycles after each join).

/** Arrays of fewer bytes than this are plain typed arrays, not blocks of the arena. */
export const MIN_BYTES = 1 << 16;
const MIN_ORDER = 16;
/** A block's key: chunk number * KEY_SPAN + byte offset in the chunk. */
const KEY_SPAN = 2 ** 36;
/** The largest chunk (and so the largest array): 2^MAX_ORDER bytes. */
const MAX_ORDER = 34;
/** A chunk is at least this big (16 MB); one added when the reserved ones are full is also at least what is reserved so far. */
const MIN_GROW_ORDER = 24;
/** A reservation is made of about this many chunks (so that `trim` can give back the ones left unused). */
const CHUNKS_PER_RESERVE = 8;
/** Chunks of a reservation are at most 2^30 bytes. */
const MAX_RESERVE_ORDER = 30;

/** The order (log2 of the block size) of the smallest block holding `bytes`. */
function orderOf(bytes: number): number {
  let k = MIN_ORDER;
  while (2 ** k < bytes) k++;
  return k;
}

type View = Int32Array | Float64Array | Uint8Array;

/** A buddy allocator over reserved ArrayBuffers, owned by one run (one file's analyses). */
export class Arena {
  /** The reserved buffers by chunk number (null: given back by `trim`). */
  private readonly chunks: (ArrayBuffer | null)[] = [];
  private readonly chunkOrder: number[] = [];
  /** Per chunk: bytes at or past this offset were never part of a handed-out array (still zero). */
  private readonly high: number[] = [];
  private readonly chunkOf = new Map<ArrayBuffer, number>();
  /** Free blocks by order: their keys; and the order of each free block by key. */
  private readonly free: Set<number>[] = [];
  private readonly freeOrder = new Map<number, number>();
  /** The order of each handed-out block by key. */
  private readonly used = new Map<number, number>();
  private readonly retired: number[] = [];
  private inUse = 0;
  private peak = 0;
  /** The order of the chunks a reservation is cut into (chunks added later are at least this big). */
  private readonly chunkBase: number;

  /**
   * `reserve`: bytes to reserve now (in a few chunks of a power of two; none below MIN_BYTES); more
   * is reserved when they run out. Reserve before building a large JS heap: the collection a
   * reservation may start is then cheap.
   */
  constructor(reserve = 0) {
    for (let k = 0; k <= MAX_ORDER; k++) this.free.push(new Set());
    this.chunkBase = Math.min(MAX_RESERVE_ORDER, orderOf(Math.max(2 ** MIN_GROW_ORDER, reserve / CHUNKS_PER_RESERVE)));
    if (reserve < MIN_BYTES) return;
    for (let n = Math.ceil(reserve / 2 ** this.chunkBase); n > 0; n--) {
      if (!this.addChunk(this.chunkBase, true)) break;
    }
  }

  /** Bytes reserved (address space; only written pages take memory). */
  get reserved(): number {
    return this.chunks.reduce((n, c) => n + (c?.byteLength ?? 0), 0);
  }

  /** Bytes in blocks handed out and not freed yet (retired ones included). */
  get bytesInUse(): number {
    return this.inUse;
  }

  /** The most bytes in blocks handed out at once. */
  get peakBytes(): number {
    return this.peak;
  }

  /** Bytes at low addresses ever handed out: an upper bound of the arena's resident memory. */
  get touched(): number {
    return this.high.reduce((n, h) => n + h, 0);
  }

  /** Reserves a chunk of 2^order bytes; with `optional`, false (nothing reserved) when it cannot be had. */
  private addChunk(order: number, optional = false): boolean {
    let buf: ArrayBuffer;
    try {
      buf = new ArrayBuffer(2 ** order);
    } catch (e) {
      if (optional && e instanceof RangeError) return false;
      throw e;
    }
    const c = this.chunks.length;
    this.chunks.push(buf);
    this.chunkOrder.push(order);
    this.high.push(0);
    this.chunkOf.set(buf, c);
    this.addFree(c * KEY_SPAN, order);
    return true;
  }

  private addFree(key: number, order: number): void {
    this.free[order]!.add(key);
    this.freeOrder.set(key, order);
  }

  private takeFree(key: number, order: number): void {
    this.free[order]!.delete(key);
    this.freeOrder.delete(key);
  }

  /** The key of a block of 2^order bytes, lowest address first among the smallest free blocks that fit. */
  private block(order: number): number {
    for (let k = order; k <= MAX_ORDER; k++) {
      const set = this.free[k]!;
      if (set.size === 0) continue;
      let key = Infinity;
      for (const x of set) if (x < key) key = x;
      this.takeFree(key, k);
      // Split down to the order asked for: the upper halves stay free.
      while (k > order) {
        k--;
        this.addFree(key + 2 ** k, k);
      }
      this.used.set(key, order);
      this.inUse += 2 ** order;
      if (this.inUse > this.peak) this.peak = this.inUse;
      return key;
    }
    // Nothing free fits: reserve a chunk (at least what is reserved so far, so there are few).
    let grow = this.chunkBase;
    while (grow < MAX_RESERVE_ORDER && 2 ** grow < this.reserved) grow++;
    this.addChunk(Math.max(order, grow));
    return this.block(order);
  }

  /** `bytes` bytes at an 8-byte aligned offset: the buffer, its offset, zero-filled when `zero`. */
  private place(bytes: number, zero: boolean): { buf: ArrayBuffer; off: number } {
    const order = orderOf(bytes);
    if (order > MAX_ORDER) throw new RangeError(`an array of ${bytes} bytes is larger than the arena's largest block`);
    const key = this.block(order);
    const c = Math.floor(key / KEY_SPAN);
    const off = key - c * KEY_SPAN;
    const buf = this.chunks[c]!;
    const h = this.high[c]!;
    // (A chunk given back by `trim` has no free block: `block` never picks one.)
    if (zero && off < h) new Uint8Array(buf, off, Math.min(bytes, h - off)).fill(0);
    if (off + bytes > h) this.high[c] = off + bytes;
    return { buf, off };
  }

  /** An Int32Array of `length` values, zero-filled unless `zero` is false (the caller writes every value it reads). */
  int32(length: number, zero = true): Int32Array {
    if (length * 4 < MIN_BYTES) return new Int32Array(length);
    const { buf, off } = this.place(length * 4, zero);
    return new Int32Array(buf, off, length);
  }

  /** A Float64Array of `length` values, zero-filled unless `zero` is false. */
  float64(length: number, zero = true): Float64Array {
    if (length * 8 < MIN_BYTES) return new Float64Array(length);
    const { buf, off } = this.place(length * 8, zero);
    return new Float64Array(buf, off, length);
  }

  /** A Uint8Array of `length` values, zero-filled unless `zero` is false. */
  uint8(length: number, zero = true): Uint8Array {
    if (length < MIN_BYTES) return new Uint8Array(length);
    const { buf, off } = this.place(length, zero);
    return new Uint8Array(buf, off, length);
  }

  /** The key of the block `a` views from its start, or -1 when `a` is not an array of this arena. */
  private keyOf(a: View): number {
    const c = a.buffer instanceof ArrayBuffer ? this.chunkOf.get(a.buffer) : undefined;
    if (c === undefined) return -1;
    const key = c * KEY_SPAN + a.byteOffset;
    return this.used.has(key) ? key : -1;
  }

  /** Gives back the block of `a` for reuse at once: `a` must not be read or written after. Arrays not of this arena are ignored. */
  release(a: View): void {
    const key = this.keyOf(a);
    if (key >= 0) this.freeBlock(key);
  }

  /** Gives back the block of `a`, reused only after the next `recycle` (a running join may still read it). */
  retire(a: View): void {
    const key = this.keyOf(a);
    if (key >= 0) this.retired.push(key);
  }

  /** Makes the retired blocks reusable; call only where no retired array is read any more. */
  recycle(): void {
    for (const key of this.retired) if (this.used.has(key)) this.freeBlock(key);
    this.retired.length = 0;
  }

  /**
   * The first `length` values of `a` as an array of the same block cut to the smallest power of two
   * holding them; the upper halves cut off are retired (reused after the next `recycle`). An array
   * not of this arena comes back as a subarray.
   */
  shrink<T extends View>(a: T, length: number): T {
    const key = this.keyOf(a);
    const out = a.subarray(0, length) as T;
    if (key < 0) return out;
    let order = this.used.get(key)!;
    const want = orderOf(length * a.BYTES_PER_ELEMENT);
    while (order > want) {
      order--;
      const upper = key + 2 ** order;
      this.used.set(upper, order);
      this.retired.push(upper);
    }
    this.used.set(key, order);
    return out;
  }

  /** Frees the block `key`, merged with its free buddies. */
  private freeBlock(key: number): void {
    let order = this.used.get(key)!;
    this.used.delete(key);
    this.inUse -= 2 ** order;
    const c = Math.floor(key / KEY_SPAN);
    let off = key - c * KEY_SPAN;
    const top = this.chunkOrder[c]!;
    while (order < top) {
      const size = 2 ** order;
      const buddyOff = Math.floor(off / size) % 2 === 0 ? off + size : off - size;
      const buddy = c * KEY_SPAN + buddyOff;
      if (this.freeOrder.get(buddy) !== order) break;
      this.takeFree(buddy, order);
      off = Math.min(off, buddyOff);
      order++;
    }
    this.addFree(c * KEY_SPAN + off, order);
  }

  /**
   * Frees every block: for the start of a new analysis in the same run, when no array of the
   * arena is read any more (the reserved buffers and their written pages are kept for it).
   */
  reset(): void {
    for (const s of this.free) s.clear();
    this.freeOrder.clear();
    this.used.clear();
    this.retired.length = 0;
    this.inUse = 0;
    this.chunks.forEach((b, c) => {
      if (b) this.addFree(c * KEY_SPAN, this.chunkOrder[c]!);
    });
  }

  /**
   * Gives back the chunks no array uses (they are freed by the next garbage collection, their
   * written pages with them): after an evaluation, so that what follows it does not sit on top of
   * the memory the evaluation needed at its peak. Later arrays reserve new chunks.
   */
  trim(): void {
    this.chunks.forEach((b, c) => {
      const key = c * KEY_SPAN;
      if (!b || this.freeOrder.get(key) !== this.chunkOrder[c]) return;
      this.takeFree(key, this.chunkOrder[c]!);
      this.chunks[c] = null;
      this.chunkOf.delete(b);
      this.high[c] = 0;
    });
  }
}
