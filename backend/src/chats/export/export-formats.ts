import type { ChatExportFormat } from '../../contracts/search';

/** What an export says about its chat, read once before the messages. */
export interface ExportedChat {
  id: string;
  title: string;
  agentName: string;
  createdAt: Date;
}

/** A message's file as an export lists it (its bytes are only read for a ZIP). */
export interface ExportedFile {
  id: string;
  name: string;
  mimeType: string;
  size: number;
  kind: 'image' | 'file';
}

export interface ExportedMessage {
  id: string;
  senderType: 'user' | 'agent';
  content: string;
  isVoiceMessage: boolean;
  createdAt: Date;
  /** 1, or more for an edited message or a regenerated reply. */
  version?: number;
  /** The versions before this one (an edit's earlier texts, a regenerated reply's earlier answers). */
  earlierVersions?: Array<{ version: number; content: string; createdAt: Date }>;
  files: ExportedFile[];
}

/**
 * Where an export points a file: a signed link (Markdown and JSON downloads: valid until `linksExpire`)
 * or its path inside the ZIP archive.
 */
export type FileRef =
  | { kind: 'link'; href: (file: ExportedFile) => string; linksExpire: Date }
  | {
      kind: 'archive';
      path: (file: ExportedFile) => string | undefined;
      link: (file: ExportedFile) => string;
    };

export const EXPORT_CONTENT_TYPES: Record<ChatExportFormat, string> = {
  md: 'text/markdown; charset=utf-8',
  json: 'application/json; charset=utf-8',
  zip: 'application/zip',
};

/** A file's place in a ZIP export: `files/0001-report.pdf`, never a path outside the folder. */
export function archivePath(index: number, name: string): string {
  const safe =
    name
      // eslint-disable-next-line no-control-regex -- control characters are what is replaced
      .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 120) || 'file';
  return `files/${String(index + 1).padStart(4, '0')}-${safe}`;
}

const sizeText = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${Math.round(bytes / 1024)} KB`
      : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Where a file of the export points, and whether that is inside the archive. */
function fileHref(ref: FileRef, file: ExportedFile): { href: string; inArchive: boolean } {
  if (ref.kind === 'link') return { href: ref.href(file), inArchive: false };
  const path = ref.path(file);
  return path ? { href: path, inArchive: true } : { href: ref.link(file), inArchive: false };
}

/**
 * A Content-Disposition for the chat's title: an ASCII `filename` any browser takes (letters, digits,
 * dashes; never a path, a quote or a header break) and the title itself, percent-encoded, in `filename*`.
 */
export function exportDisposition(title: string, format: ChatExportFormat): string {
  const ascii =
    title
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9 _.-]/g, '')
      .replace(/[\s.]+/g, '-')
      .replace(/^[-_]+|[-_]+$/g, '')
      .slice(0, 80) || 'chat';
  const unicode = `${
    title
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\u0000-\u001f\u007f/\\]/g, '')
      .slice(0, 80)
      .trim() || 'chat'
  }.${format}`;
  const encoded = encodeURIComponent(unicode).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}.${format}"; filename*=UTF-8''${encoded}`;
}

/** Markdown's inline specials in a name or title, escaped so that `**{agent}**` stays one bold name. */
function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]#<>|~]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
}

const stamp = (date: Date) => `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

export function markdownHeader(chat: ExportedChat, exportedAt: Date, ref: FileRef): string {
  const links =
    ref.kind === 'link'
      ? ` File links work until ${stamp(ref.linksExpire)}; export as ZIP to keep the files themselves.`
      : '';
  return (
    `# ${escapeInline(chat.title)}\n\n` +
    `Conversation with ${escapeInline(chat.agentName)}, started ${stamp(chat.createdAt)}; ` +
    `exported ${stamp(exportedAt)}.${links}\n`
  );
}

/** A link's target in Markdown: `<…>` keeps spaces and parentheses of an archive path intact. */
const target = (href: string) => `<${href.replace(/[<>\n]/g, '')}>`;

/**
 * One turn: `**You**` or `**{agent}**`, its time, "(voice)" for a call's transcript turn, the text, then
 * its files (an image inside a ZIP is shown, every other file is a link).
 */
export function markdownMessage(chat: ExportedChat, message: ExportedMessage, ref: FileRef): string {
  const who = message.senderType === 'user' ? 'You' : escapeInline(chat.agentName);
  const voice = message.isVoiceMessage ? ' (voice)' : '';
  const version = message.version && message.version > 1 ? ` · version ${message.version}` : '';
  const earlier = (message.earlierVersions ?? [])
    .map((v) => {
      const quoted = v.content.replace(/\n/g, '\n> ');
      return `\n> Earlier version ${v.version} · ${stamp(v.createdAt)}\n>\n> ${quoted}\n`;
    })
    .join('');
  const files = message.files
    .map((file) => {
      const { href, inArchive } = fileHref(ref, file);
      const label = escapeInline(file.name);
      const shown =
        inArchive && file.kind === 'image' ? `![${label}](${target(href)})` : `[${label}](${target(href)})`;
      return `- 📎 ${shown} (${file.mimeType}, ${sizeText(file.size)})\n`;
    })
    .join('');
  const text = message.content ? `${message.content}\n` : '';
  return `\n**${who}** · ${stamp(message.createdAt)}${voice}${version}\n\n${text}${files ? `${text ? '\n' : ''}${files}` : ''}${earlier}`;
}

/** The JSON document is written in pieces: this opening, the messages joined by commas, then `]}`. */
export function jsonHeader(chat: ExportedChat, exportedAt: Date, ref: FileRef): string {
  const head = JSON.stringify({
    chat: { id: chat.id, title: chat.title, agent: chat.agentName, created_at: chat.createdAt.toISOString() },
    exported_at: exportedAt.toISOString(),
    ...(ref.kind === 'link' ? { file_links_expire_at: ref.linksExpire.toISOString() } : {}),
  });
  return `${head.slice(0, -1)},"messages":[`;
}

/** One message; `files` has each file's `url` (a signed link) or, inside a ZIP, its `path` there. */
export function jsonMessage(
  chat: ExportedChat,
  message: ExportedMessage,
  first: boolean,
  ref: FileRef,
): string {
  const row = {
    id: message.id,
    role: message.senderType,
    sender: message.senderType === 'user' ? 'You' : chat.agentName,
    content: message.content,
    is_voice_message: message.isVoiceMessage,
    created_at: message.createdAt.toISOString(),
    ...(message.earlierVersions?.length
      ? {
          version: message.version ?? 1,
          earlier_versions: message.earlierVersions.map((v) => ({
            version: v.version,
            content: v.content,
            created_at: v.createdAt.toISOString(),
          })),
        }
      : {}),
    files: message.files.map((file) => {
      const { href, inArchive } = fileHref(ref, file);
      return {
        id: file.id,
        name: file.name,
        mime_type: file.mimeType,
        size: file.size,
        ...(inArchive ? { path: href } : { url: href }),
      };
    }),
  };
  return `${first ? '' : ','}\n${JSON.stringify(row)}`;
}

export const JSON_FOOTER = '\n]}\n';
