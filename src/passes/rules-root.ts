import { statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { DiagnosticError } from '../report/diagnostic.js';
import type { PassSpec } from './registry.js';

/**
 * Checks a `--rules-root DIR` (an edited copy of the shipped `rules/`): it must be a directory
 * holding the rule files of every selected pass. Returns DIR; a missing directory or file is a
 * diagnostic naming it.
 */
export function checkRulesRoot(dir: string, passes: readonly PassSpec[]): string {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    throw new DiagnosticError([
      {
        severity: 'error',
        code: 'unreadable-file',
        path: dir,
        message: `--rules-root ${dir} is not a directory; give a copy of the shipped rules/ directory.`,
      },
    ]);
  }
  const missing = passes
    .flatMap((p) => [p.entry, p.audit])
    .filter((f) => !isAbsolute(f))
    .filter((f) => {
      try {
        return !statSync(join(dir, f)).isFile();
      } catch {
        return true;
      }
    });
  if (missing.length > 0) {
    throw new DiagnosticError([
      {
        severity: 'error',
        code: 'unreadable-file',
        path: dir,
        message: `--rules-root ${dir} lacks ${missing.join(', ')}: it must hold the rule files of every selected pass (copy the shipped rules/ and edit the copy).`,
      },
    ]);
  }
  return dir;
}
