// Builds the playground (a static page) into playground/dist/: `npm run playground`.

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: './',
  // The library reads its rule files and grammars through node:fs; in the browser these modules
  // serve them from text bundled at build time (src/shims/).
  resolve: {
    alias: [
      { find: /^node:fs$/, replacement: here('src/shims/fs.ts') },
      { find: /^node:url$/, replacement: here('src/shims/url.ts') },
      { find: /^node:path$/, replacement: 'path-browserify' },
      { find: /^node:string_decoder$/, replacement: here('src/shims/string_decoder.ts') },
    ],
  },
  define: {
    'process.env': '{}',
    'process.cwd': '(() => "/")',
  },
  worker: { format: 'es' },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
  },
  logLevel: 'warn',
});
