import { type FSWatcher, statSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Watches rule files and directories (fs.watch) and calls `changed` once per burst of changes
 * (100 ms); returns a function that stops watching. A file is watched through its directory,
 * so an editor that saves by replacing the file (write + rename) is still seen. A path that
 * cannot be watched is skipped (the analysis reports it as unreadable).
 */
export function watchRulePaths(paths: readonly string[], changed: () => void): () => void {
  const watchers: FSWatcher[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(changed, 100);
  };
  for (const p of paths) {
    try {
      if (statSync(p).isDirectory()) {
        watchers.push(watch(p, fire));
      } else {
        const name = basename(p);
        watchers.push(
          watch(dirname(p), (_event, file) => {
            if (file === null || file === name) fire();
          }),
        );
      }
    } catch {
      // Missing or unwatchable: nothing to watch.
    }
  }
  return () => {
    if (timer) clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}
