import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { groupModules, startPageFiles } from './startPageChunks.ts';

/** A chunk of a first build: its file, modules, static imports, and the module it stands for. */
function chunk(
  fileName: string,
  moduleIds: string[],
  imports: string[] = [],
  extra: Partial<Rolldown.OutputChunk> = {},
): Rolldown.OutputChunk {
  return {
    type: 'chunk',
    fileName,
    moduleIds,
    imports,
    isEntry: false,
    facadeModuleId: null,
    ...extra,
  } as Rolldown.OutputChunk;
}

const CHAT = '/app/src/pages/ChatPage.tsx';
const SIGN_IN = '/app/src/pages/SignInPage.tsx';

function firstBuild() {
  return [
    chunk('index.js', ['/app/src/main.tsx', 'react'], ['react-dom.js'], { isEntry: true }),
    chunk('react-dom.js', ['react-dom']),
    chunk('ChatPage.js', [CHAT, 'virtuoso'], ['button.js', 'layout.js', 'react-dom.js'], {
      facadeModuleId: CHAT,
    }),
    chunk('SignInPage.js', [SIGN_IN], ['button.js', 'form.js'], { facadeModuleId: SIGN_IN }),
    chunk('button.js', ['antd/button']),
    chunk('layout.js', ['antd/layout']),
    chunk('form.js', ['antd/form']),
    chunk('Admin.js', ['/app/src/pages/Admin.tsx'], ['table.js', 'layout.js'], { facadeModuleId: 'x' }),
    chunk('table.js', ['antd/table']),
  ];
}

describe('start-page chunk groups', () => {
  it('groups what the entry loads, what both start pages load, and what each alone loads', () => {
    const groups = groupModules(firstBuild());
    expect(Object.fromEntries(groups)).toEqual({
      '/app/src/main.tsx': 'start',
      react: 'start',
      'react-dom': 'start',
      [CHAT]: 'chat',
      virtuoso: 'chat',
      'antd/layout': 'chat',
      'antd/button': 'start-pages',
      [SIGN_IN]: 'sign-in',
      'antd/form': 'sign-in',
    });
  });

  it('leaves the modules no start page loads to the automatic chunks', () => {
    const groups = groupModules(firstBuild());
    expect(groups.has('/app/src/pages/Admin.tsx')).toBe(false);
    expect(groups.has('antd/table')).toBe(false);
  });

  it('refuses a build whose start page it cannot find', () => {
    const chunks = firstBuild().filter((c) => c.fileName !== 'SignInPage.js');
    expect(() => groupModules(chunks)).toThrow(/SignInPage/);
  });

  it('refuses a build with more than one entry', () => {
    const chunks = [...firstBuild(), chunk('worker.js', ['w'], [], { isEntry: true })];
    expect(() => groupModules(chunks)).toThrow(/one entry, found 2/);
  });
});

describe('start-page files (what /session-preload.js preloads)', () => {
  /** The real build's chunks: the entry with its runtime, the shared start-pages group, each page. */
  function realBuild() {
    return [
      chunk('assets/index.js', ['/app/src/main.tsx'], ['assets/runtime.js'], { isEntry: true }),
      chunk('assets/runtime.js', ['rolldown:runtime']),
      chunk('assets/start-pages.js', ['antd/button'], ['assets/runtime.js', 'assets/index.js']),
      chunk('assets/chat.js', [CHAT], ['assets/start-pages.js', 'assets/index.js', 'assets/runtime.js']),
      chunk('assets/sign-in.js', [SIGN_IN], ['assets/start-pages.js', 'assets/index.js']),
      chunk('assets/admin.js', ['/app/src/pages/Admin.tsx'], ['assets/chat.js']),
    ];
  }

  it("lists each page's chunks beyond the entry's, dependencies first, under the base", () => {
    const chunks = realBuild();
    const page = (group: string) => chunks.find((c) => c.fileName === `assets/${group}.js`)!;
    expect(startPageFiles(chunks, page, '/')).toEqual({
      chat: ['/assets/start-pages.js', '/assets/chat.js'],
      'sign-in': ['/assets/start-pages.js', '/assets/sign-in.js'],
    });
    expect(startPageFiles(chunks, page, '/app/').chat).toEqual([
      '/app/assets/start-pages.js',
      '/app/assets/chat.js',
    ]);
  });
});
