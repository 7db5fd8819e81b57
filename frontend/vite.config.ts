import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';
import { serveSessionPreload } from './src/boot/build/sessionPreload.ts';
import { ANALYSIS_ENV, checkStartPageChunks, startPageGroups } from './src/boot/build/startPageChunks.ts';
import { themeCacheKey } from './src/boot/build/themeCacheKey.ts';

const apiTarget = 'http://localhost:3000';

const configFile = fileURLToPath(import.meta.url);

export default defineConfig(async ({ command }) => {
  // A build's first pass (src/boot/build/startPageChunks.ts) sees the chunks rolldown makes on its own.
  const analysis = process.env[ANALYSIS_ENV] === '1';
  const codeSplitting =
    command === 'build' && !analysis ? { groups: await startPageGroups(configFile) } : undefined;
  return {
    // Brotli and gzip copies of every asset, made once at build: the server picks one by Accept-Encoding
    // (express-static-gzip), so nothing is compressed per request.
    plugins: [
      react(),
      serveSessionPreload(),
      !analysis && checkStartPageChunks(),
      !analysis &&
        compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, deleteOriginalAssets: false }),
    ],
    define: { __THEME_CACHE_KEY__: JSON.stringify(themeCacheKey()) },
    resolve: {
      // Every REST and socket payload type lives in backend/src/contracts (one source); types only.
      alias: { '@contracts': fileURLToPath(new URL('../backend/src/contracts', import.meta.url)) },
    },
    server: {
      proxy: {
        '/api': { target: apiTarget, changeOrigin: false },
        '/socket.io': { target: apiTarget, ws: true },
      },
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      rolldownOptions: {
        output: { codeSplitting },
        treeshake: {
          // antd's own modules are declared free of side effects (package.json), the rc-component and
          // @ant-design helpers they are built on are not, though they are (components, hooks, styles).
          // Declared so, a module is loaded with a page only when the page uses something of it: rolldown
          // otherwise follows every import of those packages' index files, and each page's first chunks
          // carried forms, pickers and tables it never shows.
          moduleSideEffects: [
            { test: /node_modules[\\/](@rc-component|@ant-design)[\\/]/, sideEffects: false },
            { test: /\.css$/, sideEffects: true },
          ],
        },
      },
    },
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test/setup.ts'],
      restoreMocks: true,
      // antd forms typed into with userEvent take seconds in jsdom on a busy 2-core machine (a register form
      // took over 20 s at a load of 10 in CI): the limit is for a hung test, not a slow one.
      testTimeout: 60_000,
      // On CI one retry, like Playwright's: a test that fails twice still fails the run, and a flaky pass
      // is printed (vitest's report marks retried tests), so a race is seen and fixed, not hidden.
      retry: process.env.CI ? 1 : 0,
    },
  };
});
