import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { uploadAttachment, type UploadHandle } from '../../../api/attachmentUpload';
import { getErrorMessage } from '../../../api/errors';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { MAX_FILES_PER_MESSAGE, refuseFile } from './attachmentRules';

/** A file on its way to the next message: a chip in the message box. */
export interface PendingAttachment {
  key: string;
  name: string;
  size: number;
  /** 0 to 1. */
  progress: number;
  status: 'uploading' | 'done' | 'error';
  /** The server's id once stored. */
  id?: string;
  /** Why it failed (the server's sentence). */
  error?: string;
}

export interface AttachmentUploads {
  items: PendingAttachment[];
  /** Checks each file (type, size, count), then uploads those that pass. */
  add: (files: readonly File[]) => void;
  remove: (key: string) => void;
  /** After sending: the chips go (the files are the message's now). */
  clear: () => void;
  /** Every chip uploaded (none uploading, none failed). */
  ready: boolean;
  ids: string[];
}

export const FILE_NOT_ATTACHED = 'File not attached';
let nextKey = 0;

/** useAttachmentUploads' target in the welcome view with no chat yet: its first message creates it. */
export const FIRST_MESSAGE = 'first-message';

/**
 * The files of the message being written in one chat (or, FIRST_MESSAGE, for the first message of a
 * chat not created yet); a chat switch starts over. Null: no attaching (an archived chat).
 */
export function useAttachmentUploads(chatId: string | null): AttachmentUploads {
  const toasts = useActionToasts();
  const [items, setItems] = useState<PendingAttachment[]>([]);
  const uploads = useRef(new Map<string, UploadHandle>());
  // How many chips there are, counting those added in the same event before the state updates.
  const count = useRef(0);
  useEffect(() => {
    count.current = items.length;
  }, [items]);

  const abortAll = useCallback(() => {
    for (const handle of uploads.current.values()) handle.abort();
    uploads.current.clear();
  }, []);
  useEffect(() => {
    setItems([]);
    return abortAll;
  }, [chatId, abortAll]);

  const patch = (key: string, changes: Partial<PendingAttachment>) =>
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...changes } : item)));

  const add = useCallback(
    (files: readonly File[]) => {
      if (!chatId) return;
      const companyId = toasts.companyOrToast();
      if (!companyId) return;
      let room = MAX_FILES_PER_MESSAGE - count.current;
      for (const file of files) {
        const refused =
          room <= 0 ? `A message can carry at most ${MAX_FILES_PER_MESSAGE} files.` : refuseFile(file);
        if (refused) {
          toasts.refusal(FILE_NOT_ATTACHED, refused);
          continue;
        }
        room--;
        count.current++;
        const key = `a${nextKey++}`;
        const target = chatId === FIRST_MESSAGE ? null : chatId;
        const handle = uploadAttachment(companyId, target, file, (progress) => patch(key, { progress }));
        uploads.current.set(key, handle);
        setItems((list) => [
          ...list,
          { key, name: file.name, size: file.size, progress: 0, status: 'uploading' },
        ]);
        handle.done
          .then(
            (stored) => patch(key, { status: 'done', progress: 1, id: stored.id }),
            (error: unknown) => patch(key, { status: 'error', error: getErrorMessage(error) }),
          )
          .finally(() => uploads.current.delete(key));
      }
    },
    [chatId, toasts],
  );

  const remove = useCallback((key: string) => {
    uploads.current.get(key)?.abort();
    uploads.current.delete(key);
    setItems((list) => list.filter((item) => item.key !== key));
  }, []);

  const clear = useCallback(() => setItems([]), []);

  return useMemo(
    () => ({
      items,
      add,
      remove,
      clear,
      ready: items.every((item) => item.status === 'done'),
      ids: items.flatMap((item) => (item.id ? [item.id] : [])),
    }),
    [items, add, remove, clear],
  );
}
