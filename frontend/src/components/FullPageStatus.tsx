import type { ReactNode } from 'react';
import './FullPageStatus.css';

/**
 * A centred full-height message, used for app-level loading states. Plain elements on antd's theme
 * variables: it is the first thing every page load draws, before any screen's code (antd's Layout,
 * Spin and Typography brought Tooltip with them into the entry chunk, ~30 KB gzip).
 */
export function FullPageStatus({ text, spinning = true }: { text: ReactNode; spinning?: boolean }) {
  return (
    <div className="sb-full-page-status" role="status">
      {spinning && <span className="sb-full-page-status-spinner" aria-hidden="true" />}
      <span className="sb-full-page-status-text">{text}</span>
    </div>
  );
}
