import { join } from 'node:path';
import { build, type Plugin, type Rolldown } from 'vite';

const SOURCE = join(__dirname, '..', 'sessionPreload.ts');
const ENTRY = '\0session-preload-entry';

/**
 * /session-preload.js, made from ../sessionPreload.ts (one source with the app's start-up rules,
 * ../startPage.ts): one classic script, minified, that calls it with the files each start page loads.
 */
export async function buildSessionPreload(files: Record<string, string[]>): Promise<string> {
  const entry: Plugin = {
    name: 'session-preload-entry',
    resolveId: (id) => (id === ENTRY ? ENTRY : null),
    load: (id) =>
      id === ENTRY
        ? `import { preloadSession } from ${JSON.stringify(SOURCE)};\npreloadSession(${JSON.stringify(files)});\n`
        : null,
  };
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    plugins: [entry],
    build: {
      write: false,
      minify: true,
      target: 'es2020',
      reportCompressedSize: false,
      rolldownOptions: { input: ENTRY, output: { format: 'iife' } },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const chunks = (Array.isArray(output) ? output : [output])
    .flatMap((o) => o.output)
    .filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`session preload: expected one script, built ${chunks.length}`);
  return chunks[0].code;
}

/** The development server's /session-preload.js: the same script, with no files to preload. */
export function serveSessionPreload(): Plugin {
  return {
    name: 'session-preload-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/session-preload.js', (_req, res, next) => {
        buildSessionPreload({}).then((code) => {
          res.setHeader('Content-Type', 'text/javascript');
          res.end(code);
        }, next);
      });
    },
  };
}
