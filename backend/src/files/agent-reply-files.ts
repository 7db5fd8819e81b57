import { MAX_ATTACHMENTS_PER_MESSAGE } from '../contracts/chats';

/** A file in an agent's answer: fetched from `url`, or given as base64 `data`. */
export type ReplyFile = { name: string; mimeType?: string } & ({ url: string } | { data: string });

function replyFile(value: unknown): ReplyFile | null {
  if (!value || typeof value !== 'object') return null;
  const entry = value as Record<string, unknown>;
  const rawName = entry.name ?? entry.fileName;
  const name = typeof rawName === 'string' && rawName.trim() ? rawName.trim() : 'file';
  const mimeType = typeof entry.mimeType === 'string' ? entry.mimeType : undefined;
  if (typeof entry.url === 'string' && entry.url) return { name, mimeType, url: entry.url };
  if (typeof entry.data === 'string' && entry.data) return { name, mimeType, data: entry.data };
  return null;
}

/**
 * The files of an agent's answer, `[{output, files: [...]}]` (or one object), each `{name, mimeType,
 * url}` or `{name, mimeType, data}`; at most as many as a message may carry. Anything else: none.
 */
export function parseReplyFiles(body: string): ReplyFile[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  return filesOf(Array.isArray(parsed) ? parsed[0] : parsed);
}

/** The `files` of one answer object (a callback's body, a stream's end chunk). */
export function filesOf(item: unknown): ReplyFile[] {
  const files = (item as { files?: unknown } | null)?.files;
  if (!Array.isArray(files)) return [];
  return files
    .map(replyFile)
    .filter((f): f is ReplyFile => f !== null)
    .slice(0, MAX_ATTACHMENTS_PER_MESSAGE);
}
