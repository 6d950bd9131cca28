// A directory of compiled-rules entries (rule-cache.ts's CompiledStore on disk). Writes go to a
// temporary file in the same directory, renamed over the entry: a reader sees the old entry or
// the new one, never part of one, also when two processes write the same entry at once.
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledStore } from './rule-cache.js';

/** The largest entry read (a larger file is not an entry of ours). */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;

/** A store in directory `dir` (created on the first write); `writable: false` only reads (the package's prebuilt rules). */
export function diskStore(dir: string, writable = true): CompiledStore {
  let tmp = 0;
  return {
    read(name) {
      let fd: number | undefined;
      try {
        fd = openSync(join(dir, name), 'r');
        const st = fstatSync(fd);
        if (!st.isFile() || st.size > MAX_ENTRY_BYTES) return undefined;
        const buf = Buffer.allocUnsafe(st.size);
        let n = 0;
        while (n < st.size) {
          const got = readSync(fd, buf, n, st.size - n, n);
          if (got === 0) break;
          n += got;
        }
        // (An entry is ASCII (compiled.ts's asciiJson): read as Latin-1, the same text, decoded without UTF-8's checks;
        // any other byte reads as a character its checksum does not match.)
        return buf.toString('latin1', 0, n);
      } catch {
        return undefined;
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    },
    write(name, text) {
      if (!writable) return;
      const part = join(dir, `.${name}.${tmp++}.${Math.random().toString(36).slice(2, 12)}.tmp`);
      try {
        mkdirSync(dir, { recursive: true });
        writeFileSync(part, text);
        renameSync(part, join(dir, name));
      } catch {
        // A cache that cannot be written (read-only, full disk) only costs the next run a compile.
        try {
          rmSync(part, { force: true });
        } catch {
          // (nothing more to do)
        }
      }
    },
  };
}
