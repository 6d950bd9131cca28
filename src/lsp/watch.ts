import { watch, type FSWatcher } from 'node:fs';

/**
 * Watches rule files and directories (fs.watch) and calls `changed` once per burst of changes
 * (100 ms); returns a function that stops watching. A path that cannot be watched is skipped.
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
      watchers.push(watch(p, fire));
    } catch {
      // A missing path is reported by the analysis itself (unreadable-file).
    }
  }
  return () => {
    if (timer) clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}
