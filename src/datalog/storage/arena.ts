// Where one run's large typed arrays live: ArrayBuffers reserved up front (or as few, large ones
// as the run turns out to need), cut into blocks (multiples of 64 KB) by a first-fit allocator.
// Every new ArrayBuffer counts as external memory for V8, and each 64 MB of it starts a full
// garbage collection that marks the whole JS heap (a million-statement program's IR, over a
// second each time): arrays taken from reserved buffers start none. A reserved buffer costs
// address space only until its pages are written (the kernel maps them lazily; a first write of a
// page, a page fault, costs microseconds on this kind of machine), so blocks are handed out at
// the ends of a chunk and freed blocks merge with their free neighbours, to write again the pages
// already written: arrays that grow (rows, index chains: not zeroed) from the lowest address up,
// where `grow` can lengthen one in place, and zeroed tables (dedup sets, bitmaps, index keys),
// which are replaced whole when they grow, from the highest address down, where the next table
// reuses the pages of the one it replaces; `trim` lets the collector take back the buffers no
// array uses, and `renewFree` (between strata) the written pages of chunks left wholly free — the
// collections their new buffers start come while evaluation runs, when the tree is gone from the
// JS heap.
// Arrays below MIN_BYTES are allocated plainly (they are not worth a block).
//
// Lifetimes are explicit: `release` makes a block reusable at once; `retire` only at the next
// `recycle`, for arrays a running join may still read (evaluation recycles after each join).

/** Arrays of fewer bytes than this are plain typed arrays, not blocks of the arena. */
export const MIN_BYTES = 1 << 16;
/** Blocks are multiples of this many bytes (so offsets are 8-byte aligned). */
const GRAIN = 1 << 16;
/** A block's key: chunk number * KEY_SPAN + byte offset in the chunk. */
const KEY_SPAN = 2 ** 36;
/** A chunk is at least 2^MIN_CHUNK_ORDER bytes (16 MB; SMALL_CHUNK_BYTES in an arena that reserved nothing); one added when the reserved ones are full is also at least what is reserved so far. */
const MIN_CHUNK_ORDER = 24;
/** A reservation is cut into chunks of this fraction of it (at most 2^MAX_CHUNK_ORDER bytes each: more chunks then). */
const CHUNKS_PER_RESERVE = 8;
/**
 * Chunks of a reservation, and chunks added later for arrays smaller than that, are at most 2^26
 * bytes (64 MB): small enough that the strata of an evaluation leave whole chunks free, whose
 * written pages `renewFree` gives back (with chunks of a gigabyte none is ever free, and the
 * strata after a large evaluation's peak sit on pages they no longer use).
 */
const MAX_CHUNK_ORDER = 26;

/**
 * The first chunk of an arena that reserved nothing (a small file's run), 2 MB: its evaluation
 * seldom needs more, and a 16 MB chunk per small run was external memory toward a full collection
 * every few files of a many-file audit. Later chunks are at least what is reserved so far.
 */
const SMALL_CHUNK_BYTES = 1 << 21;

/** The least power of two, at least `min` and at most 2^MAX_CHUNK_ORDER, that is at least `bytes`. */
function chunkBytes(bytes: number, min: number): number {
  let c = min;
  while (c < 2 ** MAX_CHUNK_ORDER && c < bytes) c *= 2;
  return c;
}

/** `renewFree` replaces a free chunk only when at least this many of its bytes were written. */
const RENEW_FROM_BYTES = 1 << 22;

type View = Int32Array | Uint32Array | Float64Array | Uint8Array;

/** Free extents of one chunk: [start, end) byte ranges, sorted, none adjacent to another. */
interface Chunk {
  buf: ArrayBuffer | null;
  starts: number[];
  ends: number[];
  /** Bytes from `high` up to `low` were never part of a handed-out array (still zero). */
  high: number;
  low: number;
}

/** A first-fit allocator over reserved ArrayBuffers, owned by one run (one file's analyses). */
export class Arena {
  /** The reserved buffers by chunk number (buf null: given back by `trim`). */
  private readonly chunks: Chunk[] = [];
  private readonly chunkOf = new Map<ArrayBuffer, number>();
  /** The size in bytes of each handed-out block by key. */
  private readonly used = new Map<number, number>();
  private readonly retired: number[] = [];
  /**
   * Blocks whose array was cut (`shrink`) inside their last grain: the part cut off is still in
   * the block, so giving the block back retires it (reused after `recycle`) instead of freeing it.
   */
  private readonly cutInside = new Set<number>();
  private inUse = 0;
  private peak = 0;
  /** The size of the chunks a reservation is cut into (chunks added later are at least this big). */
  private readonly chunkSize: number;
  /** The least size of a chunk: 16 MB, or SMALL_CHUNK_BYTES when nothing was reserved. */
  private readonly minChunk: number;

  /**
   * `reserve`: bytes to reserve now (in a few chunks; none below MIN_BYTES); more is reserved when
   * they run out. Reserve before building a large JS heap: the collection a reservation may start
   * is then cheap.
   */
  constructor(reserve = 0) {
    this.minChunk = reserve < MIN_BYTES ? SMALL_CHUNK_BYTES : 2 ** MIN_CHUNK_ORDER;
    this.chunkSize = chunkBytes(reserve / CHUNKS_PER_RESERVE, this.minChunk);
    if (reserve < MIN_BYTES) return;
    for (let n = Math.ceil(reserve / this.chunkSize); n > 0; n--) {
      if (!this.addChunk(this.chunkSize, true)) break;
    }
  }

  /** Bytes reserved (address space; only written pages take memory). */
  get reserved(): number {
    return this.chunks.reduce((n, c) => n + (c.buf?.byteLength ?? 0), 0);
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
    return this.chunks.reduce((n, c) => n + (c.buf ? c.high + c.buf.byteLength - Math.max(c.high, c.low) : 0), 0);
  }

  /** Reserves a chunk of `bytes`; with `optional`, false (nothing reserved) when it cannot be had. */
  private addChunk(bytes: number, optional = false): boolean {
    let buf: ArrayBuffer;
    try {
      buf = new ArrayBuffer(bytes);
    } catch (e) {
      if (optional && e instanceof RangeError) return false;
      throw e;
    }
    this.chunkOf.set(buf, this.chunks.length);
    this.chunks.push({ buf, starts: [0], ends: [bytes], high: 0, low: bytes });
    return true;
  }

  /**
   * The key of a block of `size` bytes (a multiple of GRAIN): the lowest free address that fits,
   * or with `top` the highest (the end of the highest free extent that fits), in the first chunk
   * that has room.
   */
  private block(size: number, top: boolean, alone = false): number {
    for (let c = 0; c < this.chunks.length; c++) {
      const ch = this.chunks[c]!;
      const { starts, ends } = ch;
      // Alone: only the start of a chunk no array uses.
      if (alone && !(starts.length === 1 && starts[0] === 0 && ends[0] === ch.buf?.byteLength)) continue;
      for (let j = 0; j < starts.length; j++) {
        const i = top ? starts.length - 1 - j : j;
        const s = starts[i]!;
        const e = ends[i]!;
        if (e - s < size) continue;
        const at = top ? e - size : s;
        if (e - s === size) {
          starts.splice(i, 1);
          ends.splice(i, 1);
        } else if (top) ends[i] = at;
        else starts[i] = s + size;
        const key = c * KEY_SPAN + at;
        this.used.set(key, size);
        this.inUse += size;
        if (this.inUse > this.peak) this.peak = this.inUse;
        return key;
      }
    }
    // Nothing free fits: reserve a chunk (at least what is reserved so far, so there are few;
    // alone, room for the array to grow to twice its size in place).
    this.addChunk(
      alone ? Math.max(2 * size, this.minChunk) : Math.max(size, chunkBytes(Math.max(this.chunkSize, this.reserved), this.minChunk)),
    );
    return this.block(size, top, alone);
  }

  /**
   * `bytes` bytes at an 8-byte aligned offset: the buffer, its offset. A block placed `top` (by
   * default a zeroed one) comes from the top of the chunk down, another from the bottom up (see
   * the file comment); only the part of a zeroed block that was written before is filled with zeros.
   */
  private place(bytes: number, zero: boolean, top = zero): { buf: ArrayBuffer; off: number } {
    const key = this.block(Math.ceil(bytes / GRAIN) * GRAIN, top);
    const c = Math.floor(key / KEY_SPAN);
    const off = key - c * KEY_SPAN;
    const ch = this.chunks[c]!;
    const buf = ch.buf!; // a chunk given back by `trim` has no free extent: `block` never picks one
    const end = off + bytes;
    if (zero) {
      // Written before: below `high` and from `low` up.
      const h = Math.min(end, ch.high);
      const l = Math.max(off, ch.low, h);
      if (h > off) new Uint8Array(buf, off, h - off).fill(0);
      if (end > l) new Uint8Array(buf, l, end - l).fill(0);
    }
    if (end > ch.high && off < ch.low) {
      if (top) ch.low = Math.max(ch.high, off);
      else ch.high = end;
    }
    return { buf, off };
  }

  /** An Int32Array of `length` values, zero-filled unless `zero` is false (the caller writes every value it reads). */
  int32(length: number, zero = true): Int32Array {
    if (length * 4 < MIN_BYTES) return new Int32Array(length);
    const { buf, off } = this.place(length * 4, zero);
    return new Int32Array(buf, off, length);
  }

  /**
   * A Uint32Array of `length` values, zero-filled unless `zero` is false; `top`: placed among the
   * zeroed tables (an array that does not grow, e.g. scratch of a sort: likely on written pages).
   */
  uint32(length: number, zero = true, top = zero): Uint32Array {
    if (length * 4 < MIN_BYTES) return new Uint32Array(length);
    const { buf, off } = this.place(length * 4, zero, top);
    return new Uint32Array(buf, off, length);
  }

  /**
   * An array of `length` values (a Float64Array when `wide`, else an Int32Array), not zeroed, at
   * the start of a chunk no array uses (one is added when none is free): `grow` lengthens it in
   * place up to the chunk's end. For rows whose number is not known until they have all come (a
   * fact database's streamed input): grown in place they leave no freed copies behind, where
   * among other growing arrays each doubling moved them and left the old block's pages written
   * (nearly twice the rows' size, at the end of a large database's loading).
   */
  growable(length: number, wide: boolean): Int32Array | Float64Array {
    const per = wide ? 8 : 4;
    if (length * per < MIN_BYTES) return wide ? new Float64Array(length) : new Int32Array(length);
    const key = this.block(Math.ceil((length * per) / GRAIN) * GRAIN, false, true);
    const c = Math.floor(key / KEY_SPAN);
    const ch = this.chunks[c]!;
    const buf = ch.buf!;
    if (length * per > ch.high && ch.low > 0) ch.high = length * per;
    return wide ? new Float64Array(buf, 0, length) : new Int32Array(buf, 0, length);
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
    // (A buffer smaller than any chunk is a plain array's own.)
    if (a.buffer.byteLength < this.minChunk) return -1;
    const c = a.buffer instanceof ArrayBuffer ? this.chunkOf.get(a.buffer) : undefined;
    if (c === undefined) return -1;
    const key = c * KEY_SPAN + a.byteOffset;
    return this.used.has(key) ? key : -1;
  }

  /** Gives back the block of `a` for reuse at once: `a` must not be read or written after. Arrays not of this arena are ignored. */
  release(a: View): void {
    const key = this.keyOf(a);
    if (key < 0) return;
    if (this.cutInside.delete(key)) this.retired.push(key);
    else this.freeBlock(key);
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
   * The first `length` values of `a` as an array of the same block cut to the grains holding them;
   * the part cut off is retired (reused after the next `recycle`). An array not of this arena
   * comes back as a subarray.
   */
  shrink<T extends View>(a: T, length: number): T {
    const key = this.keyOf(a);
    const out = a.subarray(0, length) as T;
    if (key < 0) return out;
    const size = this.used.get(key)!;
    const keep = Math.max(GRAIN, Math.ceil((length * a.BYTES_PER_ELEMENT) / GRAIN) * GRAIN);
    if (keep < size) {
      this.used.set(key, keep);
      this.used.set(key + keep, size - keep);
      this.retired.push(key + keep);
    }
    if (length * a.BYTES_PER_ELEMENT < Math.min(keep, size)) this.cutInside.add(key);
    return out;
  }

  /**
   * `a` lengthened in place to `length` values: the same memory (its values kept, `a` itself still
   * valid), its block extended over the free extent right after it; null when that extent is not
   * free or too small (or `a` is not an array of this arena). The added values are not zeroed.
   * Growing a relation's rows this way copies nothing and writes no page before a row does.
   */
  grow<T extends Int32Array | Float64Array>(a: T, length: number): T | null {
    const key = this.keyOf(a);
    if (key < 0) return null;
    const bytes = length * a.BYTES_PER_ELEMENT;
    const size = this.used.get(key)!;
    const want = Math.ceil(bytes / GRAIN) * GRAIN;
    const c = Math.floor(key / KEY_SPAN);
    const start = key - c * KEY_SPAN;
    const ch = this.chunks[c]!;
    if (want > size) {
      const end = start + size;
      const { starts, ends } = ch;
      // The free extent starting where the block ends (extents are sorted by start).
      const lo = firstAtOrAfter(starts, end);
      if (lo >= starts.length || starts[lo] !== end || ends[lo]! - end < want - size) return null;
      if (ends[lo]! - end === want - size) {
        starts.splice(lo, 1);
        ends.splice(lo, 1);
      } else starts[lo] = end + (want - size);
      this.used.set(key, want);
      this.inUse += want - size;
      if (this.inUse > this.peak) this.peak = this.inUse;
    }
    if (start + bytes > ch.high && start < ch.low) ch.high = start + bytes;
    return (
      a instanceof Float64Array ? new Float64Array(a.buffer, a.byteOffset, length) : new Int32Array(a.buffer, a.byteOffset, length)
    ) as T;
  }

  /** Frees the block `key`, merged with the free extents next to it. */
  private freeBlock(key: number): void {
    const size = this.used.get(key)!;
    this.used.delete(key);
    this.cutInside.delete(key);
    this.inUse -= size;
    const c = Math.floor(key / KEY_SPAN);
    const start = key - c * KEY_SPAN;
    const end = start + size;
    const { starts, ends } = this.chunks[c]!;
    // The first extent starting after the block.
    const lo = firstAtOrAfter(starts, start);
    const joinsPrev = lo > 0 && ends[lo - 1] === start;
    const joinsNext = lo < starts.length && starts[lo] === end;
    if (joinsPrev && joinsNext) {
      ends[lo - 1] = ends[lo]!;
      starts.splice(lo, 1);
      ends.splice(lo, 1);
    } else if (joinsPrev) ends[lo - 1] = end;
    else if (joinsNext) starts[lo] = start;
    else {
      starts.splice(lo, 0, start);
      ends.splice(lo, 0, end);
    }
  }

  /**
   * Frees every block: for the start of a new analysis in the same run, when no array of the
   * arena is read any more (the reserved buffers and their written pages are kept for it).
   */
  reset(): void {
    this.used.clear();
    this.cutInside.clear();
    this.retired.length = 0;
    this.inUse = 0;
    for (const ch of this.chunks) {
      ch.starts = ch.buf ? [0] : [];
      ch.ends = ch.buf ? [ch.buf.byteLength] : [];
    }
  }

  /**
   * Replaces each chunk no array uses but whose pages were written with a new buffer of the same
   * size (pages not written yet: they take no memory): the old buffer and its pages go at the next
   * garbage collection, which allocating the new buffers soon starts (V8 counts them as external
   * memory). Between the strata of an evaluation, so that a stratum that needed a lot does not
   * leave what follows sitting on its pages; a chunk with less than 4 MB written is kept. Returns
   * the bytes of the chunks replaced.
   */
  renewFree(): number {
    let renewed = 0;
    this.chunks.forEach((ch, c) => {
      const b = ch.buf;
      if (!b || ch.starts.length !== 1 || ch.starts[0] !== 0 || ch.ends[0] !== b.byteLength) return;
      // A chunk with few pages written keeps them: its new buffer's external memory would start a
      // collection sooner than those pages matter (a small evaluation would renew its chunk after
      // every stratum: a full collection every few files of a many-file audit).
      if (ch.high + b.byteLength - Math.max(ch.low, ch.high) < RENEW_FROM_BYTES) return;
      const fresh = new ArrayBuffer(b.byteLength);
      this.chunkOf.delete(b);
      this.chunkOf.set(fresh, c);
      ch.buf = fresh;
      ch.high = 0;
      ch.low = fresh.byteLength;
      renewed += fresh.byteLength;
    });
    return renewed;
  }

  /**
   * Gives back the chunks no array uses (they are freed by the next garbage collection, their
   * written pages with them): after an evaluation, so that what follows it does not sit on top of
   * the memory the evaluation needed at its peak. Later arrays reserve new chunks.
   */
  trim(): void {
    for (const ch of this.chunks) {
      const b = ch.buf;
      if (!b || ch.starts.length !== 1 || ch.starts[0] !== 0 || ch.ends[0] !== b.byteLength) continue;
      ch.buf = null;
      ch.starts = [];
      ch.ends = [];
      ch.high = 0;
      ch.low = 0;
      this.chunkOf.delete(b);
    }
  }
}

/** The index of the first of the sorted `starts` that is at least `x` (`starts.length` when none is). */
function firstAtOrAfter(starts: readonly number[], x: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
