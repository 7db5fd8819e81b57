import { theme } from 'antd';
import { useMemo, type CSSProperties } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { ensureContrastOnAll, luminance } from '../../../lib/color';
import { rehypeHighlightCode } from '../markdown/highlightCode';
import { CodeBlock } from './CodeBlock';

/** Syntax colours (GitHub's), per kind of token; nudged to WCAG AA on the code block's background. */
const SYNTAX_COLORS = {
  light: {
    keyword: '#cf222e',
    string: '#0a3069',
    comment: '#6e7781',
    number: '#0550ae',
    title: '#8250df',
    builtin: '#953800',
    name: '#116329',
    addition: '#116329',
    deletion: '#82071e',
  },
  dark: {
    keyword: '#ff7b72',
    string: '#a5d6ff',
    comment: '#8b949e',
    number: '#79c0ff',
    title: '#d2a8ff',
    builtin: '#ffa657',
    name: '#7ee787',
    addition: '#aff5b4',
    deletion: '#ffdcd7',
  },
} as const;

/** The CSS variables styles.css reads for code (inline chips, blocks and their highlighting). */
export function codeVariables(token: ReturnType<typeof theme.useToken>['token']): CSSProperties {
  const codeBg = token.colorBgContainer;
  const palette = luminance(codeBg) > 0.18 ? SYNTAX_COLORS.light : SYNTAX_COLORS.dark;
  const variables: Record<string, string> = {
    '--sb-code-font': token.fontFamilyCode,
    '--sb-code-bg': codeBg,
    '--sb-code-border': token.colorBorderSecondary,
    '--sb-code-chip-bg': token.colorFillTertiary,
    '--sb-code-muted': token.colorTextSecondary,
  };
  for (const [kind, color] of Object.entries(palette)) {
    variables[`--sb-hl-${kind}`] = ensureContrastOnAll(color, [codeBg]);
  }
  return variables as CSSProperties;
}

/**
 * An agent's reply as Markdown (GitHub flavour: bare URLs become links, tables, strikethrough, task
 * lists). Raw HTML in the text is not rendered (react-markdown's default, kept on purpose: replies come
 * from third-party webhooks), unsafe link protocols are dropped by its default URL transform, and links
 * open in a new tab without access to this page. Fenced code is a block of its own (highlighted when
 * its language is known, scrolled sideways rather than cut, with a copy button); inline code is a chip.
 * Loaded on demand with its highlighter (MessageBubble), not with the chat screen.
 */
export function AgentMarkdown({ content }: { content: string }) {
  const { token } = theme.useToken();
  const style = useMemo(() => ({ overflowWrap: 'anywhere' as const, ...codeVariables(token) }), [token]);
  const components = useMemo<Components>(
    () => ({
      a: ({ node: _node, ...props }) => (
        <a {...props} target="_blank" rel="noopener noreferrer" style={{ color: token.colorLink }} />
      ),
      pre: ({ node, children }) => <CodeBlock node={node}>{children}</CodeBlock>,
      // A wide table scrolls inside the bubble; the keyboard reaches it too.
      table: ({ node: _node, ...props }) => (
        <div className="sb-markdown-scroll" tabIndex={0} role="region" aria-label="Table">
          <table {...props} />
        </div>
      ),
      // Task list boxes are shown, not edited: named for screen readers.
      input: ({ node: _node, ...props }) =>
        props.type === 'checkbox' ? (
          <input {...props} disabled aria-label={props.checked ? 'Done' : 'Not done'} />
        ) : null,
      blockquote: ({ node: _node, ...props }) => (
        <blockquote
          {...props}
          style={{
            borderLeft: `3px solid ${token.colorBorder}`,
            paddingLeft: token.paddingSM,
            marginLeft: 0,
            color: token.colorTextSecondary,
          }}
        />
      ),
    }),
    [token],
  );
  return (
    <div className="sb-markdown" style={style}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeHighlightCode]}
        components={components}
      >
        {content}
      </ReactMarkdown>
    </div>
  );
}
