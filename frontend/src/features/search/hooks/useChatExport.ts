import type { ChatExportFormat } from '@contracts/search';
import { useCallback } from 'react';
import type { ChatView } from '../../../api/contracts';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { searchApi } from '../searchApi';

/** The server's ASCII file name for a chat's title (its Content-Disposition `filename`). */
export function exportFileName(title: string, format: ChatExportFormat): string {
  const base =
    title
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9 _.-]/g, '')
      .replace(/[\s.]+/g, '-')
      .replace(/^[-_]+|[-_]+$/g, '')
      .slice(0, 80) || 'chat';
  return `${base}.${format}`;
}

const MIME: Record<ChatExportFormat, string> = {
  md: 'text/markdown;charset=utf-8',
  json: 'application/json;charset=utf-8',
  zip: 'application/zip',
};

/** Row menu: Export as Markdown / JSON / ZIP (with the files) downloads the chat as a file. */
export function useChatExport(): (chat: ChatView, format: ChatExportFormat) => Promise<void> {
  const toasts = useActionToasts();
  return useCallback(
    async (chat, format) => {
      const companyId = toasts.companyOrToast();
      if (!companyId) return;
      try {
        const body = await searchApi.exportChat(companyId, chat.id, format);
        // The client reads a JSON answer into an object: written back out, indented for reading.
        const file =
          body instanceof Blob
            ? body
            : new Blob([typeof body === 'string' ? body : `${JSON.stringify(body, null, 2)}\n`], {
                type: MIME[format],
              });
        const url = URL.createObjectURL(file);
        const link = document.createElement('a');
        link.href = url;
        link.download = exportFileName(chat.title, format);
        document.body.append(link);
        link.click();
        link.remove();
        // After the click has handed the file to the browser's download.
        setTimeout(() => URL.revokeObjectURL(url), 0);
      } catch (error) {
        toasts.failure('Error exporting chat', error);
      }
    },
    [toasts],
  );
}
