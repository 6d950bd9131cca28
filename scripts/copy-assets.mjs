// Copies non-TypeScript assets (Ohm grammars) from src/ to dist/ so the built CLI finds them.
import { cpSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.ohm')) {
      const target = join(root, 'dist', path.slice(join(root, 'src').length));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(path, target);
    }
  }
}
walk(join(root, 'src'));
