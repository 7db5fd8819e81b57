import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import postcss, { type ChildNode } from 'postcss';
import type { Plugin } from 'vite';

/**
 * antd's prebuilt stylesheet (antd/dist/antd.css, ~1 MB: every component), split so that each
 * component's rules load with the code that renders it.
 *
 * The app runs antd with zeroRuntime (src/app/AppProviders.tsx): component styles come from that
 * stylesheet, not generated in the page. Loaded whole, the browser decoded and parsed all of it on every
 * page load (~40 ms of a warm /chat load here), for the ~20 components a page shows. Here, each antd
 * module that names a component's class prefix (`getPrefixCls('btn')`) imports the rules of that prefix
 * (`.ant-btn…`); Vite then puts them in the CSS of the chunk holding that module, which loads with it.
 * Rules of no component (motion classes, keyframes, the default theme's variables) stay in
 * `virtual:antd-style/base.css`, which main.tsx imports. The app's own elements drawn with antd's class
 * names (src/components/Plain.tsx, AvatarImage.tsx) import their prefix's rules themselves.
 *
 * The dev server pre-bundles antd without running plugins on it, so there base.css is the whole file.
 */

const VIRTUAL = 'virtual:antd-style/';
const RESOLVED = '\0antd-style:';

export interface AntdStyles {
  /** Rules by class prefix, in the stylesheet's order; 'base' holds those of no known prefix. */
  byPrefix: Map<string, string>;
  /** The prefixes each antd module file names (absolute path → prefixes). */
  prefixesOf: Map<string, string[]>;
}

/** The component's class prefix a selector starts with (the longest known one), or null. */
export function prefixOf(selector: string, known: readonly string[]): string | null {
  const cls = selector.match(/\.ant-([a-z]+(?:-[a-z]+)*)/)?.[1];
  if (!cls) return null;
  let best: string | null = null;
  for (const prefix of known)
    if ((cls === prefix || cls.startsWith(`${prefix}-`)) && (!best || prefix.length > best.length))
      best = prefix;
  return best;
}

/** The selector a top-level node is filed by: a rule's, or the first rule's inside @media and the like. */
function selectorOf(node: ChildNode): string {
  if (node.type === 'rule') return node.selector;
  if (node.type === 'atrule' && !/keyframes$/.test(node.name))
    return node.nodes?.find((child) => child.type === 'rule')?.selector ?? '';
  return '';
}

/** Splits a stylesheet by component class prefix. */
export function splitByPrefix(css: string, known: readonly string[]): Map<string, string> {
  const parts = new Map<string, string[]>();
  for (const node of postcss.parse(css).nodes) {
    const prefix = prefixOf(selectorOf(node), known) ?? 'base';
    parts.set(prefix, [...(parts.get(prefix) ?? []), node.toString()]);
  }
  return new Map([...parts].map(([prefix, rules]) => [prefix, rules.join('\n')]));
}

/** The class prefixes a module asks antd's config for: `getPrefixCls('btn', …)`. */
export function prefixesIn(code: string): string[] {
  return [...new Set([...code.matchAll(/getPrefixCls\(\s*['"]([a-z-]+)['"]/g)].map((m) => m[1]))];
}

function readAntdStyles(antdDir: string): AntdStyles {
  const prefixesOf = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) {
        const prefixes = prefixesIn(readFileSync(path, 'utf8'));
        if (prefixes.length) prefixesOf.set(path, prefixes);
      }
    }
  };
  walk(join(antdDir, 'es'));
  const known = [...new Set([...prefixesOf.values()].flat())];
  if (known.length < 50)
    throw new Error(`antd styles: only ${known.length} class prefixes found in ${antdDir}`);
  const byPrefix = splitByPrefix(readFileSync(join(antdDir, 'dist', 'antd.css'), 'utf8'), known);
  return { byPrefix, prefixesOf };
}

export function antdStylesPerComponent(): Plugin {
  const antdDir = dirname(createRequire(import.meta.url).resolve('antd/package.json'));
  const antdEs = join(antdDir, 'es') + sep;
  let styles: AntdStyles | undefined;
  let whole = false;
  const load = () => (styles ??= readAntdStyles(antdDir));
  return {
    name: 'antd-styles-per-component',
    enforce: 'pre',
    configResolved(config) {
      whole = config.command === 'serve';
    },
    resolveId(source) {
      return source.startsWith(VIRTUAL) ? RESOLVED + source.slice(VIRTUAL.length) : null;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return null;
      const prefix = id.slice(RESOLVED.length).replace(/\.css$/, '');
      if (whole) return prefix === 'base' ? readFileSync(join(antdDir, 'dist', 'antd.css'), 'utf8') : '';
      const { byPrefix, prefixesOf } = load();
      const known = prefix === 'base' || [...prefixesOf.values()].some((of) => of.includes(prefix));
      if (!known) this.error(`antd styles: no antd component has the class prefix '${prefix}'`);
      return byPrefix.get(prefix) ?? '';
    },
    transform(code, id) {
      if (whole || !id.startsWith(antdEs)) return null;
      const prefixes = load().prefixesOf.get(id.split('?')[0]);
      if (!prefixes) return null;
      const imports = prefixes
        .filter((prefix) => load().byPrefix.has(prefix))
        .map((prefix) => `import '${VIRTUAL}${prefix}.css';\n`)
        .join('');
      return imports ? { code: imports + code, map: null } : null;
    },
  };
}
