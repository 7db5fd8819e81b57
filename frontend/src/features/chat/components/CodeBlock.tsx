import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ExtraProps } from 'react-markdown';
import { copyToClipboard } from '../../invitations/copyToClipboard';
import { languageOf, textOf } from '../markdown/highlightCode';

type CopyState = 'idle' | 'copied' | 'failed';

/** How long 'Copied' stays before the button reads 'Copy code' again. */
const FEEDBACK_MS = 2000;

/**
 * A fenced code block of an agent's reply: its language and a copy button above the code, which keeps
 * its lines (a long one scrolls sideways inside the bubble; the block takes focus so the keyboard can
 * scroll it too).
 */
export function CodeBlock({ node, children }: { node: ExtraProps['node']; children: ReactNode }) {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const code = node?.children.find((child) => child.type === 'element' && child.tagName === 'code');
  const language = code && code.type === 'element' ? languageOf(code) : null;

  const copy = async () => {
    const copied = await copyToClipboard(node ? textOf(node).replace(/\n$/, '') : '');
    setState(copied ? 'copied' : 'failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), FEEDBACK_MS);
  };

  return (
    <div className="sb-code-block" data-testid="code-block">
      <div className="sb-code-block-header">
        <span className="sb-code-block-language">{language ?? 'code'}</span>
        <span className="sb-code-block-actions">
          <span role="status" className="sb-code-block-feedback">
            {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : ''}
          </span>
          <Button
            type="text"
            size="small"
            aria-label="Copy code"
            icon={state === 'copied' ? <CheckOutlined /> : <CopyOutlined />}
            onClick={() => void copy()}
          />
        </span>
      </div>
      {/* Focusable: a code block that scrolls sideways must be reachable from the keyboard. */}
      <pre tabIndex={0}>{children}</pre>
    </div>
  );
}
