import type { ChatExportFormat } from '../../contracts/search';

/** What an export says about its chat, read once before the messages. */
export interface ExportedChat {
  id: string;
  title: string;
  agentName: string;
  createdAt: Date;
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
}

export const EXPORT_CONTENT_TYPES: Record<ChatExportFormat, string> = {
  md: 'text/markdown; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

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

export function markdownHeader(chat: ExportedChat, exportedAt: Date): string {
  return (
    `# ${escapeInline(chat.title)}\n\n` +
    `Conversation with ${escapeInline(chat.agentName)}, started ${stamp(chat.createdAt)}; ` +
    `exported ${stamp(exportedAt)}.\n`
  );
}

/** One turn: `**You**` or `**{agent}**`, its time, "(voice)" for a call's transcript turn, the text. */
export function markdownMessage(chat: ExportedChat, message: ExportedMessage): string {
  const who = message.senderType === 'user' ? 'You' : escapeInline(chat.agentName);
  const voice = message.isVoiceMessage ? ' (voice)' : '';
  const version = message.version && message.version > 1 ? ` · version ${message.version}` : '';
  const earlier = (message.earlierVersions ?? [])
    .map((v) => {
      const quoted = v.content.replace(/\n/g, '\n> ');
      return `\n> Earlier version ${v.version} · ${stamp(v.createdAt)}\n>\n> ${quoted}\n`;
    })
    .join('');
  return `\n**${who}** · ${stamp(message.createdAt)}${voice}${version}\n\n${message.content}\n${earlier}`;
}

/** The JSON document is written in pieces: this opening, the messages joined by commas, then `]}`. */
export function jsonHeader(chat: ExportedChat, exportedAt: Date): string {
  const head = JSON.stringify({
    chat: { id: chat.id, title: chat.title, agent: chat.agentName, created_at: chat.createdAt.toISOString() },
    exported_at: exportedAt.toISOString(),
  });
  return `${head.slice(0, -1)},"messages":[`;
}

export function jsonMessage(chat: ExportedChat, message: ExportedMessage, first: boolean): string {
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
  };
  return `${first ? '' : ','}\n${JSON.stringify(row)}`;
}

export const JSON_FOOTER = '\n]}\n';
