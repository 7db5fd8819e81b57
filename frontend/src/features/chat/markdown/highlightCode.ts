import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { createLowlight } from 'lowlight';

/**
 * Syntax highlighting of fenced code blocks, with the few languages agents' replies usually hold (each
 * grammar also answers to its usual aliases: js, ts, tsx, sh, shell, py, html, yml, ...). This module is
 * loaded with the Markdown renderer only, never with the chat screen itself.
 */
const lowlight = createLowlight({
  bash,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  sql,
  typescript,
  xml,
  yaml,
});

type HastRoot = ReturnType<typeof lowlight.highlight>;
type HastChild = HastRoot['children'][number];
type HastElement = Extract<HastChild, { type: 'element' }>;
type HastNode = HastRoot | HastChild;

/** The text of a node and everything in it. */
export function textOf(node: HastNode): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return node.children.map((child) => textOf(child as HastNode)).join('');
  return '';
}

/** The language of a `code` element from its 'language-…' class, e.g. 'js'. */
export function languageOf(node: { properties?: { className?: unknown } }): string | null {
  const classes = node.properties?.className;
  const list = Array.isArray(classes) ? classes : typeof classes === 'string' ? classes.split(' ') : [];
  const found = list.find((c): c is string => typeof c === 'string' && c.startsWith('language-'));
  return found ? found.slice('language-'.length).toLowerCase() : null;
}

function highlightBlock(code: HastElement): void {
  const language = languageOf(code);
  if (!language || !lowlight.registered(language)) return;
  const highlighted = lowlight.highlight(language, textOf(code));
  code.children = highlighted.children as HastElement['children'];
  const classes = Array.isArray(code.properties.className) ? code.properties.className : [];
  code.properties.className = [...classes, 'hljs'];
}

function visit(node: HastNode, parent: HastNode | null): void {
  if (node.type === 'element' && node.tagName === 'code') {
    // Fenced blocks only (`pre > code`): inline code stays as it is.
    if (parent?.type === 'element' && parent.tagName === 'pre') highlightBlock(node);
    return;
  }
  if ('children' in node) for (const child of node.children) visit(child as HastNode, node);
}

/**
 * A rehype plugin: the code of each fenced block with a known language becomes `hljs-*` spans (unknown
 * or missing languages stay plain text).
 */
export function rehypeHighlightCode() {
  return (tree: HastRoot) => visit(tree, null);
}
