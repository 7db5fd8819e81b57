import type { MessageAttachment } from '@contracts/chats';
import { ApiError } from './errors';
import { http } from './httpClient';

export interface UploadHandle {
  /** The stored upload; rejects with an ApiError (the server's sentence) or when aborted. */
  done: Promise<MessageAttachment>;
  abort: () => void;
}

/**
 * Uploads one file for the next message of a chat with XMLHttpRequest, which (unlike fetch) reports the
 * upload's progress. The access token is the http client's; an expired one is refreshed once.
 */
export function uploadAttachment(
  companyId: string,
  /** Null: for a first message, before its chat exists (POST /api/messages then takes it). */
  chatId: string | null,
  file: File,
  onProgress: (fraction: number) => void,
): UploadHandle {
  let current: XMLHttpRequest | null = null;
  let aborted = false;
  const attempt = (token: string | null) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      current = xhr;
      xhr.open('POST', chatId ? `/api/chats/${encodeURIComponent(chatId)}/attachments` : '/api/attachments');
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      xhr.setRequestHeader('X-Company-Id', companyId);
      xhr.responseType = 'json';
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
      xhr.onload = () => resolve({ status: xhr.status, body: xhr.response as unknown });
      xhr.onerror = () => reject(new ApiError('network', 0));
      xhr.onabort = () => reject(new ApiError('network', 0, { message: 'Upload cancelled' }));
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
  const run = async (): Promise<MessageAttachment> => {
    let answer = await attempt(http.getAccessToken());
    if (answer.status === 401 && !aborted) {
      const session = await http.refresh();
      answer = await attempt(session.accessToken);
    }
    if (answer.status >= 200 && answer.status < 300) return answer.body as MessageAttachment;
    throw new ApiError(
      'http',
      answer.status,
      (answer.body ?? undefined) as Record<string, string> | undefined,
    );
  };
  return {
    done: run(),
    abort: () => {
      aborted = true;
      current?.abort();
    },
  };
}
