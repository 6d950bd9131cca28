import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DiagnosticError } from '../report/diagnostic.js';

/** How a source file's bytes were decoded (so writing it back keeps every other byte). */
export type SourceEncoding = 'utf8' | 'latin1';

/** A file's text and the encoding that maps it back to the same bytes. */
export interface SourceFile {
  text: string;
  encoding: SourceEncoding;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Why a path cannot be read, in the words every command uses. */
export function unreadableReason(e: unknown, path: string): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EISDIR' || (code === undefined && isDirectory(path))) return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'a part of the path is not a directory';
  return 'it cannot be read';
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Reads a source file. Valid UTF-8 is decoded as UTF-8; any other bytes are decoded as Latin-1
 * (one character per byte), so writing the text back with the same encoding restores every byte
 * outside the edits. An unreadable file is a diagnostic naming the path.
 */
export function readSource(path: string): SourceFile {
  let buf: Buffer;
  try {
    if (isDirectory(path)) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    buf = readFileSync(path);
  } catch (e) {
    throw new DiagnosticError([
      { severity: 'error', code: 'unreadable-file', path, message: `cannot read ${path}: ${unreadableReason(e, path)}.` },
    ]);
  }
  return decodeSource(buf);
}

/** Decodes a source file's bytes: valid UTF-8 as UTF-8, anything else as Latin-1 (one character per byte). */
export function decodeSource(buf: Uint8Array): SourceFile {
  try {
    return { text: UTF8.decode(buf), encoding: 'utf8' };
  } catch {
    return { text: Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('latin1'), encoding: 'latin1' };
  }
}

/** Reads a text file (see readSource); only the text. */
export function readText(path: string): string {
  return readSource(path).text;
}

const TMP_TAG = '.ptolog.tmp';
const RESULT_TAG = '.ptolog.result';

function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}${TMP_TAG}`);
}

/** Whether the process `pid` is running (a write it left behind is then still in progress). */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The files `.NAME.PID<tag>` beside `target` whose writer PID is no longer running. */
function leftBehind(target: string, tag: string): string[] {
  const dir = dirname(target);
  const prefix = `.${basename(target)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(prefix) && n.endsWith(tag))
    .filter((n) => {
      const pid = Number(n.slice(prefix.length, -tag.length));
      return !Number.isSafeInteger(pid) || pid <= 0 || !alive(pid);
    })
    .map((n) => join(dir, n));
}

/**
 * The complete results left by a write of `path` (a hard-linked file) that was killed while
 * copying the result in place: the file may be partial, the result file is whole. A result of a
 * write still running (another ptolog on the same file) is not one.
 */
export function interruptedWrites(path: string): string[] {
  try {
    return leftBehind(realpathSync(path), RESULT_TAG);
  } catch {
    return [];
  }
}

/**
 * Removes the temporary files (`.NAME.PID.ptolog.tmp`) that writes of `target` killed before
 * their rename left beside it: never renamed, they are no part of any file. Returns them.
 */
export function removeStaleTemps(target: string): string[] {
  const stale = leftBehind(target, TMP_TAG);
  return stale.filter((p) => {
    try {
      unlinkSync(p);
      return true;
    } catch {
      return false;
    }
  });
}

function writeFully(fd: number, data: Buffer): void {
  let off = 0;
  while (off < data.length) off += writeSync(fd, data, off, data.length - off);
}

function failWrite(path: string, why: string): never {
  throw new DiagnosticError([
    { severity: 'error', code: 'write-failed', path, message: `cannot write ${path}: ${why}; the original is unchanged.` },
  ]);
}

/**
 * Replaces a file's contents, never leaving a partially written file:
 *
 * - a symlink is written through: the link's resolved target is replaced, the link kept;
 * - the new file gets the old one's mode (including setuid/setgid) and, when allowed (root),
 *   its owner and group;
 * - a file without any write bit is refused (`read-only`), as is an unwritable one;
 * - a file with one link: the result is written to a temporary file beside it, flushed, and
 *   renamed onto it (kill -9 at any moment leaves the original or the full result);
 * - a file with several hard links: a rename would detach it from its other names, so the full
 *   result is first written and flushed to a temporary file beside it, then copied over the
 *   file in place, and the temporary file removed. Kill -9 during the copy leaves the
 *   complete result in `.NAME.PID.ptolog.result`; the next `apply --write` on that file refuses
 *   to run and names it (see interruptedWrites).
 */
export function writeAtomic(path: string, text: string, encoding: SourceEncoding = 'utf8'): void {
  let target: string;
  try {
    target = lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch (e) {
    failWrite(path, unreadableReason(e, path));
  }
  let st;
  try {
    st = statSync(target);
  } catch (e) {
    failWrite(path, unreadableReason(e, target));
  }
  if ((st.mode & 0o222) === 0) failWrite(path, 'it is read-only (no write permission bit); make it writable first');
  removeStaleTemps(target);
  const data = Buffer.from(text, encoding);
  const tmp = tempPathFor(target);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', 0o600);
    writeFully(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    if (st.nlink > 1) {
      // Keep the hard links: name the flushed result (atomically), then copy it over the file in place.
      const result = tmp.slice(0, -TMP_TAG.length) + RESULT_TAG;
      renameSync(tmp, result);
      const out = openSync(target, 'r+');
      try {
        writeFully(out, data);
        ftruncateSync(out, data.length);
        fsyncSync(out);
      } finally {
        closeSync(out);
      }
      unlinkSync(result);
      return;
    }
    try {
      chownSync(tmp, st.uid, st.gid);
    } catch {
      // Only root may give a file to another user; otherwise the file becomes ours, as with any editor.
    }
    chmodSync(tmp, st.mode & 0o7777);
    renameSync(tmp, target);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // never created
    }
    if (e instanceof DiagnosticError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    failWrite(path, code === 'EACCES' || code === 'EPERM' ? 'permission denied' : e instanceof Error ? e.message : String(e));
  }
}

/** True when `path` exists (any kind). */
export function exists(path: string): boolean {
  return existsSync(path);
}

/**
 * Creates an output directory (and its parents) or fails with a diagnostic naming it: a path
 * through a file, an existing file, or no permission.
 */
export function ensureOutputDir(dir: string, flag: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOTDIR' || code === 'EEXIST'
        ? 'a file is in the way (the path or one of its parents is not a directory)'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : e instanceof Error
            ? e.message
            : String(e);
    throw new DiagnosticError([
      { severity: 'error', code: 'unwritable-output', path: dir, message: `cannot create the output directory ${dir} (${flag}): ${why}.` },
    ]);
  }
}

/**
 * Runs `write` (which writes files into the output directory `dir` of option `flag`), turning a
 * file that cannot be written (a directory in the way, a read-only or virtual file system) into
 * a located `unwritable-output` error naming that file.
 */
export function writingOutputs<T>(dir: string, flag: string, write: () => T): T {
  try {
    return write();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (typeof err?.code !== 'string' || err.syscall === undefined) throw e;
    const path = err.path ?? dir;
    const why =
      err.code === 'EISDIR'
        ? 'a directory is in the way'
        : err.code === 'ENOTDIR'
          ? 'a part of the path is not a directory'
          : err.code === 'EACCES' || err.code === 'EPERM'
            ? 'permission denied'
            : err.code === 'EROFS'
              ? 'the file system is read-only'
              : err.code === 'ENOENT'
                ? 'the file cannot be created there'
                : err.code === 'ENOSPC'
                  ? 'no space left on the device'
                  : err.message;
    throw new DiagnosticError([
      { severity: 'error', code: 'unwritable-output', path, message: `cannot write ${path} (${flag} ${dir}): ${why}.` },
    ]);
  }
}
