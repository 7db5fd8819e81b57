import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '../../common/company-scope';
import { NotFoundError } from '../../common/domain-errors';
import type { ChatExportFormat } from '../../contracts/search';
import { CHAT_NOT_FOUND } from '../chats.service';
import { ChatExportRepository } from './chat-export.repository';
import {
  EXPORT_CONTENT_TYPES,
  type ExportedChat,
  exportDisposition,
  JSON_FOOTER,
  jsonHeader,
  jsonMessage,
  markdownHeader,
  markdownMessage,
} from './export-formats';

/** Messages read per query: a 100,000-message chat is never in memory at once. */
export const EXPORT_PAGE_SIZE = 500;

export interface ChatExport {
  contentType: string;
  disposition: string;
  body: Readable;
}

/** Export of one of the caller's own chats, as Markdown or JSON, written while it is read. */
@Injectable()
export class ChatExportService {
  constructor(private readonly rows: ChatExportRepository) {}

  /** Checks the chat is the caller's (404 before anything is sent), then streams it. */
  async export(scope: OwnerScope, chatId: string, format: ChatExportFormat): Promise<ChatExport> {
    const chat = await this.rows.findOwnedChat(scope, chatId);
    if (!chat) throw new NotFoundError(CHAT_NOT_FOUND);
    return {
      contentType: EXPORT_CONTENT_TYPES[format],
      disposition: exportDisposition(chat.title, format),
      // Pulled page by page as the client reads: backpressure keeps memory flat.
      body: Readable.from(this.pieces(chat, format)),
    };
  }

  private async *pieces(chat: ExportedChat, format: ChatExportFormat): AsyncGenerator<string> {
    const exportedAt = new Date();
    yield format === 'md' ? markdownHeader(chat, exportedAt) : jsonHeader(chat, exportedAt);
    let after: string | null = null;
    let first = true;
    for (;;) {
      const page = await this.rows.page(chat.id, after, EXPORT_PAGE_SIZE);
      let text = '';
      for (const message of page) {
        text += format === 'md' ? markdownMessage(chat, message) : jsonMessage(chat, message, first);
        first = false;
      }
      if (text) yield text;
      if (page.length < EXPORT_PAGE_SIZE) break;
      after = page[page.length - 1].seq;
    }
    if (format === 'json') yield JSON_FOOTER;
  }
}
