import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Three bundles. `main` holds three entries: the thin Electron shell (app), the engine's
// command line (cli), which runs under plain Node, and the program of the engine's worker
// threads (engine-worker). Dependencies stay external, so the
// engine loads the better-sqlite3 built for the Node that runs it, except zod and yaml: pure
// JavaScript that every command loads, whose ~170 files cost more to find and compile one by
// one than bundled (docs/BENCHMARK.md, "Start-up").
export default defineConfig({
  main: {
    build: {
      externalizeDeps: { exclude: ['zod', 'yaml'] },
      outDir: 'out/main',
      rollupOptions: {
        input: {
          app: resolve(__dirname, 'src/main/app/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
          // The engine's worker threads (src/main/engine/workers/locate.ts finds it here).
          'engine-worker': resolve(__dirname, 'src/main/engine/workers/worker-main.ts'),
          // The provider thread (src/main/engine/providers/threaded.ts finds it here).
          'provider-worker': resolve(__dirname, 'src/main/engine/workers/provider-thread.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].js' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
