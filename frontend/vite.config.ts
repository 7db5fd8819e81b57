import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { compression } from 'vite-plugin-compression2';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { antdStylesPerComponent } from './build/antdStyles.ts';
import { ANALYSIS_ENV, checkStartPageChunks, startPageGroups } from './build/startPageChunks.ts';

const apiTarget = 'http://localhost:3000';

/** What a theme kept in the browser (src/app/themeCache.ts) was computed by: a change of any makes it stale. */
const themeCacheKey = createHash('sha256')
  .update(
    [
      fileURLToPath(new URL('./src/app/theme.ts', import.meta.url)),
      fileURLToPath(new URL('./src/features/platform-admin/appearance/color.ts', import.meta.url)),
      createRequire(import.meta.url).resolve('antd/package.json'),
      createRequire(import.meta.url).resolve('@ant-design/cssinjs/package.json'),
    ]
      .map((file) => readFileSync(file, 'utf8'))
      .join('\0'),
  )
  .digest('hex')
  .slice(0, 16);

/**
 * antd's Button and Tag styles take `isBright` from the ColorPicker's presets module, which also imports
 * Collapse: with a ColorPicker anywhere in the app, every page with a Button loaded Collapse and the
 * presets panel. Those two imports get the function alone (build/antdIsBright.js), so they load with
 * the ColorPicker's page only. The build fails if antd's function is no longer the copied one.
 */
const antdIsBright = fileURLToPath(new URL('./build/antdIsBright.js', import.meta.url));
function antdIsBrightAlone(): Plugin {
  const presets = createRequire(import.meta.url).resolve('antd/es/color-picker/components/ColorPresets.js');
  const body = (code: string) => code.match(/export const isBright = [\s\S]*?\n};/)?.[0].replace(/\s+/g, '');
  return {
    name: 'antd-is-bright-alone',
    enforce: 'pre',
    buildStart() {
      const theirs = body(readFileSync(presets, 'utf8'));
      if (!theirs || theirs !== body(readFileSync(antdIsBright, 'utf8')))
        this.error(`antd's isBright (${presets}) changed: update build/antdIsBright.js`);
    },
    resolveId(source, importer) {
      if (
        source === '../../color-picker/components/ColorPresets' &&
        importer &&
        /antd[\\/]es[\\/](button|tag)[\\/]style[\\/]/.test(importer)
      )
        return antdIsBright;
      return null;
    },
  };
}

const configFile = fileURLToPath(import.meta.url);

export default defineConfig(async ({ command }) => {
  // A build's first pass (build/startPageChunks.ts) sees the chunks rolldown makes on its own.
  const analysis = process.env[ANALYSIS_ENV] === '1';
  const codeSplitting =
    command === 'build' && !analysis ? { groups: await startPageGroups(configFile) } : undefined;
  return {
    // Brotli and gzip copies of every asset, made once at build: the server picks one by Accept-Encoding
    // (express-static-gzip), so nothing is compressed per request.
    plugins: [
      react(),
      antdIsBrightAlone(),
      antdStylesPerComponent(),
      !analysis && checkStartPageChunks(),
      !analysis &&
        compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, deleteOriginalAssets: false }),
    ],
    define: { __THEME_CACHE_KEY__: JSON.stringify(themeCacheKey) },
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
      include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
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
