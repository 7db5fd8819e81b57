import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prefixesIn, prefixOf, splitByPrefix } from './antdStyles.ts';

const KNOWN = ['btn', 'btn-group', 'input', 'input-number', 'select', 'select-tree', 'picker'];

describe("antd's stylesheet split by component", () => {
  it('files a selector under the longest class prefix it starts with', () => {
    expect(prefixOf('.ant-btn', KNOWN)).toBe('btn');
    expect(prefixOf('.ant-btn-primary:hover', KNOWN)).toBe('btn');
    expect(prefixOf('.ant-btn-group > .ant-btn', KNOWN)).toBe('btn-group');
    expect(prefixOf('.ant-input-number-handler', KNOWN)).toBe('input-number');
    expect(prefixOf(':where(.css-var-x).ant-select-tree .ant-select-tree-node', KNOWN)).toBe('select-tree');
    // A class that only starts like a prefix is not that component's.
    expect(prefixOf('.ant-buttonish', KNOWN)).toBeNull();
    expect(prefixOf('.anticon', KNOWN)).toBeNull();
    expect(prefixOf('html', KNOWN)).toBeNull();
  });

  it("keeps each prefix's rules in their order, @media with them, and the rest in base", () => {
    const css = [
      '.ant-btn{color:red}',
      '@keyframes antZoomIn{0%{opacity:0}}',
      '.ant-input{border:1px}',
      '@media (max-width:575px){.ant-btn-lg{padding:0}}',
      '.ant-zoom-enter{opacity:0}',
      '.ant-btn-primary{color:blue}',
    ].join('');
    const parts = splitByPrefix(css, KNOWN);
    expect([...parts.keys()].sort()).toEqual(['base', 'btn', 'input']);
    expect(parts.get('btn')).toBe(
      '.ant-btn{color:red}\n@media (max-width:575px){.ant-btn-lg{padding:0}}\n.ant-btn-primary{color:blue}',
    );
    expect(parts.get('input')).toBe('.ant-input{border:1px}');
    expect(parts.get('base')).toBe('@keyframes antZoomIn{0%{opacity:0}}\n.ant-zoom-enter{opacity:0}');
  });

  it('reads the prefixes a module asks for', () => {
    const code = `const prefixCls = getPrefixCls('btn', customizePrefixCls);
      const groupPrefixCls = getPrefixCls("btn-group"); getPrefixCls('btn'); getPrefixCls(name);`;
    expect(prefixesIn(code)).toEqual(['btn', 'btn-group']);
  });
});

/** The app's files, with their text. */
function sources(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
      ? [{ path, text: readFileSync(path, 'utf8') }]
      : [];
  });
}

describe("the app's own elements with antd's class names", () => {
  // With antd's stylesheet split, the rules for `ant-flex` come with antd's Flex module: an element of
  // the app's own that uses the class must bring them (import 'virtual:antd-style/flex.css').
  it('import the rules of every antd class prefix they render', () => {
    const missing: string[] = [];
    for (const { path, text } of sources(join(__dirname, '..', 'src'))) {
      const code = text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
      const used = new Set([
        ...[...code.matchAll(/['"`\s]ant-(avatar|flex|typography|app|btn|input|layout|spin)\b/g)].map(
          (m) => m[1],
        ),
        // An element drawn like an antd component's root (appApi.tsx: `getPrefixCls('app')`).
        ...prefixesIn(code),
      ]);
      for (const prefix of used)
        if (!code.includes(`import 'virtual:antd-style/${prefix}.css'`)) missing.push(`${path}: ${prefix}`);
    }
    expect(missing).toEqual([]);
  });
});
