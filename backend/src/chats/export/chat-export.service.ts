import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { ZipFile } from 'yazl';
import type { OwnerScope } from '../../common/company-scope';
import { NotFoundError } from '../../common/domain-errors';
import type { ChatExportFormat } from '../../contracts/search';
import { AttachmentsService } from '../../files/attachments.service';
import { CHAT_NOT_FOUND } from '../chats.service';
import { ChatExportRepository } from './chat-export.repository';
import {
  archivePath,
  EXPORT_CONTENT_TYPES,
  type ExportedChat,
  exportDisposition,
  type FileRef,
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

/**
 * Export of one of the caller's own chats, written while it is read: Markdown or JSON with each
 * message's files as signed links, or a ZIP holding both (chat.md, chat.json) and the files themselves
 * (files/0001-name.ext), each file's bytes streamed from the store when the archive reaches it.
 */
@Injectable()
export class ChatExportService {
  constructor(
    private readonly rows: ChatExportRepository,
    private readonly attachments: AttachmentsService,
  ) {}

  /** Checks the chat is the caller's (404 before anything is sent), then streams it. */
  async export(scope: OwnerScope, chatId: string, format: ChatExportFormat): Promise<ChatExport> {
    const chat = await this.rows.findOwnedChat(scope, chatId);
    if (!chat) throw new NotFoundError(CHAT_NOT_FOUND);
    const links = this.attachments.exportLinks();
    const exportedAt = new Date();
    let body: Readable;
    if (format === 'zip') {
      body = await this.archive(chat, exportedAt, links.link);
    } else {
      const ref: FileRef = {
        kind: 'link',
        href: (file) => links.link(file.id),
        linksExpire: new Date(links.expiresAt * 1000),
      };
      // Pulled page by page as the client reads: backpressure keeps memory flat.
      body = Readable.from(this.pieces(chat, format, exportedAt, ref));
    }
    return {
      contentType: EXPORT_CONTENT_TYPES[format],
      disposition: exportDisposition(chat.title, format),
      body,
    };
  }

  /**
   * The ZIP: the transcript twice (Markdown, JSON) pointing at the files' paths in the archive, then the
   * files. Only the files' names are read up front; each entry's bytes are opened when yazl reaches it.
   * A file attached after the list was read is linked instead.
   */
  private async archive(
    chat: ExportedChat,
    exportedAt: Date,
    link: (fileId: string) => string,
  ): Promise<Readable> {
    const files = await this.rows.filesOfChat(chat.id);
    const paths = new Map(files.map((file, i) => [file.id, archivePath(i, file.name)]));
    const ref: FileRef = {
      kind: 'archive',
      path: (file) => paths.get(file.id),
      link: (file) => link(file.id),
    };
    const zip = new ZipFile();
    const mtime = exportedAt;
    zip.addReadStream(Readable.from(this.pieces(chat, 'md', exportedAt, ref)), 'chat.md', { mtime });
    zip.addReadStream(Readable.from(this.pieces(chat, 'json', exportedAt, ref)), 'chat.json', { mtime });
    for (const file of files) {
      // Stored as is: images, PDFs and Office files are compressed already.
      zip.addReadStreamLazy(paths.get(file.id) as string, { mtime, compress: false }, (done) => {
        this.attachments.bytesOf(file.id).then(
          (stream) => done(null, stream),
          (error: unknown) => done(error instanceof Error ? error : new Error(String(error)), null as never),
        );
      });
    }
    zip.end();
    return zip.outputStream as Readable;
  }

  private async *pieces(
    chat: ExportedChat,
    format: 'md' | 'json',
    exportedAt: Date,
    ref: FileRef,
  ): AsyncGenerator<string> {
    yield format === 'md' ? markdownHeader(chat, exportedAt, ref) : jsonHeader(chat, exportedAt, ref);
    let after: string | null = null;
    let first = true;
    for (;;) {
      const page = await this.rows.page(chat.id, after, EXPORT_PAGE_SIZE);
      let text = '';
      for (const message of page) {
        text +=
          format === 'md' ? markdownMessage(chat, message, ref) : jsonMessage(chat, message, first, ref);
        first = false;
      }
      if (text) yield text;
      if (page.length < EXPORT_PAGE_SIZE) break;
      after = page[page.length - 1].seq;
    }
    if (format === 'json') yield JSON_FOOTER;
  }
}
