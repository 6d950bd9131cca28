// The file of a V8 code cache kept beside a script (`<file>.cache`): a header, the SHA-1 of the
// script's bytes and of the data, then V8's data. Written by the build (bin/code-cache.js, after
// a warm-up run), read by bin/code-cache.js (the CLI's bundle) and prebuilt-plans.ts (the build's
// join plans). A cache is used only for the very bytes it was made from and when whole.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

const MAGIC = Buffer.from('ptolog-code-cache-1\n');
const SHA1 = 20;

const sha1 = (data: Uint8Array): Buffer => createHash('sha1').update(data).digest();

/** The cached data of `file` made from its bytes `bytes`, or undefined (none, torn, or of another text). */
export function cachedDataOf(file: string, bytes: Uint8Array): Buffer | undefined {
  let buf: Buffer;
  try {
    buf = readFileSync(`${file}.cache`);
  } catch {
    return undefined;
  }
  const head = MAGIC.length + 2 * SHA1;
  if (buf.length <= head || !buf.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const data = buf.subarray(head);
  if (!buf.subarray(MAGIC.length, MAGIC.length + SHA1).equals(sha1(bytes))) return undefined;
  if (!buf.subarray(MAGIC.length + SHA1, head).equals(sha1(data))) return undefined;
  return data;
}

/** Writes `<file>.cache` holding `data`, V8's cache of `file` as its bytes `bytes` read, whole or not at all (a temporary file renamed over it). */
export function writeCachedData(file: string, bytes: Uint8Array, data: Uint8Array): void {
  const tmp = `${file}.cache.${randomUUID()}.tmp`;
  writeFileSync(tmp, Buffer.concat([MAGIC, sha1(bytes), sha1(data), data]));
  renameSync(tmp, `${file}.cache`);
}
