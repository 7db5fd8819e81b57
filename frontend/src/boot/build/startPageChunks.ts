import { build, type Plugin, type Rolldown } from 'vite';
import { buildSessionPreload } from './sessionPreload.ts';

type OutputChunk = Rolldown.OutputChunk;
type RolldownOutput = Rolldown.RolldownOutput;

/**
 * The first screens' code in a few files instead of ~50.
 *
 * rolldown puts each module in a chunk of the modules imported by the same set of pages and dialogs, so
 * the chat loaded ~50 files and the sign-in page ~28: each one a cache lookup, a modulepreload link and
 * a module record on every load (what the groups buy: ../README.md). The groups here follow the pages a
 * load starts on (../startPage.ts):
 *
 * - `start`: what the app's entry loads before any page;
 * - `start-pages`: what the sign-in page and the chat both load beyond it;
 * - `chat`, `sign-in`: what each of them alone loads.
 *
 * Each start page still loads the modules it loaded before, no more (the build's first-load figures,
 * e2e/tests/first-load.spec.ts, count its bytes); a later page that needs one module of a group loads
 * the group. Which modules those are is known only after tree-shaking, so a first build without groups
 * (not minified, not written) tells, and its chunks are regrouped.
 */

/** Set in the first build's environment: it runs this config without the groups. */
export const ANALYSIS_ENV = 'SB_START_CHUNKS_ANALYSIS';

const START_PAGES = [
  { group: 'chat', facade: /src[\\/]pages[\\/]ChatPage\.tsx$/ },
  { group: 'sign-in', facade: /src[\\/]pages[\\/]SignInPage\.tsx$/ },
] as const;

type Group = 'start' | 'start-pages' | (typeof START_PAGES)[number]['group'];
const GROUP_ORDER: Group[] = ['start', 'start-pages', 'chat', 'sign-in'];

/** The chunks a chunk loads: itself and what it imports statically, transitively. */
function loads(chunk: OutputChunk, byFile: Map<string, OutputChunk>): Set<OutputChunk> {
  const seen = new Set<OutputChunk>();
  const todo = [chunk];
  while (todo.length) {
    const next = todo.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const file of next.imports) {
      const imported = byFile.get(file);
      if (imported) todo.push(imported);
    }
  }
  return seen;
}

/** Module id → group, from the chunks of a build without groups. */
export function groupModules(chunks: OutputChunk[]): Map<string, Group> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entries = chunks.filter((chunk) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`start-page chunks: expected one entry, found ${entries.length}`);
  const start = loads(entries[0], byFile);
  const pages = START_PAGES.map(({ group, facade }) => {
    const page = chunks.filter((chunk) => chunk.facadeModuleId && facade.test(chunk.facadeModuleId));
    if (page.length !== 1) throw new Error(`start-page chunks: expected one chunk for ${facade}`);
    return { group, chunks: [...loads(page[0], byFile)].filter((chunk) => !start.has(chunk)) };
  });
  const groups = new Map<string, Group>();
  for (const chunk of start) for (const id of chunk.moduleIds) groups.set(id, 'start');
  const pagesOf = new Map<OutputChunk, Group[]>();
  for (const page of pages)
    for (const chunk of page.chunks) pagesOf.set(chunk, [...(pagesOf.get(chunk) ?? []), page.group]);
  for (const [chunk, of] of pagesOf)
    for (const id of chunk.moduleIds) groups.set(id, of.length > 1 ? 'start-pages' : of[0]);
  return groups;
}

/** The codeSplitting groups of the real build: highest priority first, so each keeps its own modules. */
export async function startPageGroups(configFile: string): Promise<Rolldown.CodeSplittingGroup[]> {
  const previous = process.env[ANALYSIS_ENV];
  process.env[ANALYSIS_ENV] = '1';
  let output: RolldownOutput | RolldownOutput[];
  try {
    output = (await build({
      configFile,
      logLevel: 'silent',
      build: { write: false, minify: false, sourcemap: false, reportCompressedSize: false },
    })) as RolldownOutput | RolldownOutput[];
  } finally {
    if (previous === undefined) delete process.env[ANALYSIS_ENV];
    else process.env[ANALYSIS_ENV] = previous;
  }
  const chunks = (Array.isArray(output) ? output : [output])
    .flatMap((o) => o.output)
    .filter((item): item is OutputChunk => item.type === 'chunk');
  const groups = groupModules(chunks);
  return GROUP_ORDER.map((name, index) => ({
    name,
    priority: GROUP_ORDER.length - index,
    test: (id: string) => groups.get(id) === name,
    // A group's modules import only modules of its own group or an earlier one (the first build's
    // chunks say so): following the imports again here would pull in modules tree-shaking drops.
    includeDependenciesRecursively: false,
  }));
}

/**
 * The files each start page loads beyond the entry's (its groups' chunks), as /session-preload.js
 * preloads them: `{ chat: ['/assets/start-pages-….js', '/assets/chat-….js'], 'sign-in': [...] }`.
 */
export function startPageFiles(
  chunks: OutputChunk[],
  pageChunk: (group: (typeof START_PAGES)[number]['group']) => OutputChunk,
  base = '/',
): Record<string, string[]> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry);
  const start = entry ? loads(entry, byFile) : new Set<OutputChunk>();
  const files: Record<string, string[]> = {};
  for (const { group } of START_PAGES) {
    // Dependencies first, the page last (the order of the imports that will ask for them).
    files[group] = [...loads(pageChunk(group), byFile)]
      .filter((chunk) => !start.has(chunk))
      .reverse()
      .map((chunk) => `${base}${chunk.fileName}`);
  }
  return files;
}

/**
 * Fails the build when a start page loads another one's group: the sign-in page loading the chat's
 * code (a side-effect import can tie them) would put its bytes over the first-load budget unseen.
 *
 * Then writes /session-preload.js (../sessionPreload.ts, which runs as the page starts, before the app's
 * entry has been parsed) with the start pages' files, so that the page it will show starts loading at
 * once rather than once the entry has been parsed and run.
 */
export function checkStartPageChunks(): Plugin {
  let base = '/';
  return {
    name: 'start-page-chunks-check',
    apply: 'build',
    // After Vite's CSS plugin has dropped the chunks that held only CSS.
    enforce: 'post',
    configResolved(config) {
      base = config.base;
    },
    async generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const groupOf = (chunk: OutputChunk) => GROUP_ORDER.find((group) => chunk.name === group);
      const pageChunk = (group: string) => {
        const { facade } = START_PAGES.find((page) => page.group === group)!;
        const page = chunks.find((chunk) =>
          chunk.moduleIds.some((id) => facade.test(id) && chunk.name === group),
        );
        if (!page) this.error(`start-page chunks: no '${group}' chunk holds ${facade}`);
        return page;
      };
      for (const { group } of START_PAGES) {
        for (const chunk of loads(pageChunk(group), byFile)) {
          const loaded = groupOf(chunk);
          // rolldown's runtime helpers are a chunk of their own, a few hundred bytes.
          if (
            chunk.isEntry ||
            chunk.name === 'rolldown-runtime' ||
            loaded === 'start' ||
            loaded === 'start-pages' ||
            loaded === group
          )
            continue;
          this.error(`start-page chunks: the ${group} page loads ${chunk.fileName}`);
        }
      }
      // An asset of the bundle, so it is compressed with the others.
      this.emitFile({
        type: 'asset',
        fileName: 'session-preload.js',
        source: await buildSessionPreload(startPageFiles(chunks, pageChunk, base)),
      });
    },
  };
}
