/** The reader of a project's other modules from the file system (the CLI's, the language server's and its thread's). */
import { readFileSync } from 'node:fs';
import type { ModuleReader } from '../frontend/index.js';

/** A ModuleReader of files on disk, searching `roots` for absolute imports after the importing file's folder. */
export function fileModuleReader(roots: readonly string[]): ModuleReader {
  return {
    roots,
    read: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
        return { error: code === 'EACCES' ? 'permission denied' : e instanceof Error ? e.message : String(e) };
      }
    },
  };
}
