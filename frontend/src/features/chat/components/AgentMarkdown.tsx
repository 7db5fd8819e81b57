import { theme } from 'antd';
import type { CSSProperties } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';

/**
 * An agent's reply as Markdown. Raw HTML in the text is not rendered (react-markdown's default, kept on
 * purpose: replies come from third-party webhooks), unsafe link protocols are dropped by its default URL
 * transform, and links open in a new tab without access to this page.
 */
export function AgentMarkdown({ content }: { content: string }) {
  const { token } = theme.useToken();
  const codeStyle: CSSProperties = {
    fontFamily: token.fontFamilyCode,
    fontSize: '0.9em',
    background: token.colorFillTertiary,
    borderRadius: token.borderRadiusSM,
    padding: '0.1em 0.35em',
  };
  const components: Components = {
    a: ({ node: _node, ...props }) => (
      <a {...props} target="_blank" rel="noopener noreferrer" style={{ color: token.colorLink }} />
    ),
    code: ({ node: _node, ...props }) => <code {...props} style={codeStyle} />,
    pre: ({ node: _node, ...props }) => (
      <pre
        {...props}
        style={{
          fontFamily: token.fontFamilyCode,
          background: token.colorFillTertiary,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadius,
          padding: token.paddingSM,
        }}
      />
    ),
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
  };
  return (
    <div className="sb-markdown" style={{ overflowWrap: 'anywhere' }}>
      <ReactMarkdown components={components}>{content}</ReactMarkdown>
    </div>
  );
}
