import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { KeyObject } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { guardedGet } from '../webhooks/guarded-fetch';
import type { ReplyFile } from './agent-reply-files';
import type { OwnerScope } from '../common/company-scope';
import {
  DomainError,
  GoneError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationFailedError,
} from '../common/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MAX_ATTACHMENTS_PER_MESSAGE, type MessageAttachment } from '../contracts/chats';
import { Database, type Tx } from '../database/database';
import { isConnectionError, untilDatabaseAnswers } from '../database/until-database-answers';
import { CompanyQuotasService } from '../quotas/company-quotas.service';
import {
  attachmentLinkKey,
  checkAttachmentLink,
  signAttachmentPath,
  userLinkExpiry,
} from './attachment-links';
import { ATTACHMENT_STORE, type AttachmentStore } from './attachment-store';
import { cleanFileName, decideAttachmentType, Utf8Check } from './attachment-types';
import { type AttachmentRow, AttachmentsRepository, type FilesOf } from './files.repository';
import { FilesService } from './files.service';

export const ATTACHMENT_NOT_FOUND = 'File not found';
export const ATTACHMENT_LINK_EXPIRED = 'This file link has expired. Open the chat again for a new one.';
export const EMPTY_FILE = 'The file is empty.';
export const UPLOAD_TARGET_GONE = 'The chat was deleted while the file was uploading.';
export const UNKNOWN_ATTACHMENTS =
  'An attached file was not found or was already sent. Please attach it again.';
export const TOO_MANY_ATTACHMENTS = `A message can carry at most ${MAX_ATTACHMENTS_PER_MESSAGE} files.`;
export const IMAGE_UNREADABLE = (name: string): string => `"${name}" could not be read as an image.`;
export const NOT_TEXT = (name: string): string =>
  `"${name}" is not a text file (it must be UTF-8 text to be attached as ${name.split('.').pop()}).`;
export const LONGER_THAN_DECLARED = (name: string): string =>
  `"${name}" is longer than its upload declared; please attach it again.`;
export const fileTooLarge = (name: string, maxBytes: number): string =>
  `"${name}" is too large: files can be at most ${Math.round(maxBytes / (1024 * 1024))} MB.`;

/** file-type reads the first bytes; Office documents need the zip's first entries, within 64 KB. */
const SNIFF_BYTES = 64 * 1024;
const UNATTACHED_TTL_MS = 24 * 60 * 60 * 1000;
/** How long an upload cut by a database outage waits for the database to be discarded. */
const DISCARD_RETRY_MS = 10 * 60 * 1000;

/**
 * A file as the agent's webhook body lists it: `url` is a signed link it can GET without a session; in
 * inline mode a small file comes as `data` (base64) with `fileName`, as n8n's chat trigger has it.
 */
export type AgentFile = { id: string; name: string; mimeType: string; size: number } & (
  { url: string } | { fileName: string; data: string }
);

/** Inline mode: files up to this size go in the body, larger ones (and past the total) as links. */
export const INLINE_FILE_MAX_BYTES = 1024 * 1024;
const INLINE_TOTAL_MAX_BYTES = 4 * 1024 * 1024;

/** An attachment's bytes, ready to be served. */
export interface AttachmentContent {
  name: string;
  mimeType: string;
  size: number;
  kind: 'image' | 'file';
  body: Readable;
}

/**
 * Files attached to messages: uploads (type decided from the bytes, size capped while it streams),
 * signed links, the link to a message, and their removal. The bytes go to the configured store.
 */
@Injectable()
export class AttachmentsService implements OnApplicationShutdown {
  private readonly logger = new Logger('Attachments');
  private readonly linkKey: KeyObject;
  /** Set on shutdown: a discard waiting for the database gives up (the sweep finishes it). */
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ATTACHMENT_STORE) private readonly store: AttachmentStore,
    private readonly rows: AttachmentsRepository,
    private readonly images: FilesService,
    private readonly database: Database,
    private readonly quotas: CompanyQuotasService,
  ) {
    this.linkKey = attachmentLinkKey(config.jwtSecret);
  }

  /**
   * Stores an upload to a chat the caller has checked is the owner's. The type comes from the first
   * bytes (text from the extension, confirmed over the whole file); the size is counted as the bytes
   * stream to the store, and the upload refused as soon as it passes the limit. Images are re-encoded.
   * Nothing of a refused upload is kept.
   *
   * `declaredBytes` (the request's Content-Length, a fetched file's length) is what the upload holds of
   * its company's stored-bytes quota while it streams: a body longer than it declared is refused.
   * Unknown: MAX_ATTACHMENT_MB is held.
   */
  async upload(
    scope: OwnerScope,
    chatId: string | null,
    rawName: string,
    body: Readable,
    declaredBytes?: number,
  ): Promise<MessageAttachment> {
    const name = cleanFileName(rawName);
    const maxBytes = this.config.attachments.maxBytes;
    const reserve =
      declaredBytes !== undefined && Number.isSafeInteger(declaredBytes) && declaredBytes > 0
        ? Math.min(declaredBytes, maxBytes)
        : maxBytes;
    const source = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let seen = 0;
    const next = async (): Promise<Buffer | null> => {
      const { value, done } = await source.next();
      if (done) return null;
      seen += value.length;
      if (seen > maxBytes) throw new PayloadTooLargeError(fileTooLarge(name, maxBytes));
      if (seen > reserve) throw new ValidationFailedError(LONGER_THAN_DECLARED(name));
      return value;
    };

    const head: Buffer[] = [];
    let headBytes = 0;
    let ended = false;
    while (headBytes < SNIFF_BYTES) {
      const piece = await next();
      if (!piece) {
        ended = true;
        break;
      }
      head.push(piece);
      headBytes += piece.length;
    }
    if (headBytes === 0) throw new ValidationFailedError(EMPTY_FILE);
    const headBuffer = Buffer.concat(head);
    const { fileTypeFromBuffer } = await import('file-type');
    const decision = decideAttachmentType(name, await fileTypeFromBuffer(headBuffer));
    if ('refused' in decision) throw new ValidationFailedError(decision.refused);

    const rest = async function* (): AsyncGenerator<Buffer> {
      yield headBuffer;
      if (ended) return;
      for (let piece = await next(); piece; piece = await next()) yield piece;
    };

    if (decision.kind === 'image') {
      // An image is decoded whole to be re-encoded; it is at most MAX_ATTACHMENT_MB.
      const pieces: Buffer[] = [];
      for await (const piece of rest()) pieces.push(piece);
      const image = await this.images.reencodeAttachedImage(Buffer.concat(pieces), decision.mimeType);
      if (!image) throw new ValidationFailedError(IMAGE_UNREADABLE(name));
      return this.storeNew(scope, chatId, name, decision, [image.data], image, image.data.length);
    }
    const text = decision.text ? new Utf8Check() : null;
    const checked = async function* (): AsyncGenerator<Buffer> {
      for await (const piece of rest()) {
        text?.push(piece);
        yield piece;
      }
      if (text && !text.end()) throw new ValidationFailedError(NOT_TEXT(name));
    };
    return this.storeNew(scope, chatId, name, decision, checked(), null, reserve);
  }

  private async storeNew(
    scope: OwnerScope,
    chatId: string | null,
    name: string,
    type: { mimeType: string; kind: 'image' | 'file' },
    bytes: AsyncIterable<Buffer> | Buffer[],
    dimensions: { width: number; height: number } | null,
    reserveBytes: number,
  ): Promise<MessageAttachment> {
    // The quota check and the row holding its reservation commit together, before a byte is stored.
    const id = await this.database.transaction(async (tx) => {
      await this.quotas.reserveStoredBytes(tx, scope.companyId, reserveBytes);
      return this.rows.insert(tx, {
        ownerId: scope.userId,
        companyId: scope.companyId,
        chatId,
        name,
        mimeType: type.mimeType,
        kind: type.kind,
        storage: this.store.kind,
        reservedBytes: reserveBytes,
      });
    });
    try {
      const size = await this.store.write(id, toAsync(bytes));
      // No row left: the chat (agent, company) was deleted while the bytes streamed; the catch below
      // deletes them from the store, which the deletion could not see yet.
      if (!(await this.rows.markStored(id, size, dimensions))) throw new NotFoundError(UPLOAD_TARGET_GONE);
      return this.view({
        id,
        messageId: null,
        name,
        ...type,
        size,
        storage: this.store.kind,
        ...dims(dimensions),
      });
    } catch (error) {
      // A chunk that could not be written because its file's row had just been deleted is the same case.
      const gone = !(error instanceof DomainError) && !(await this.rows.find(id).catch(() => ({ id })));
      await this.discard([{ id, storage: this.store.kind }]);
      throw gone ? new NotFoundError(UPLOAD_TARGET_GONE) : error;
    }
  }

  /**
   * Links uploads to a message being sent, inside the sender's transaction: every id must be one of the
   * sender's unsent uploads in this chat (`uploadedTo` null: uploaded before the chat existed, for its
   * first message), or nothing is sent.
   */
  async attach(
    tx: Tx,
    scope: OwnerScope,
    chatId: string,
    messageId: string,
    ids: readonly string[],
    uploadedTo: string | null = chatId,
  ): Promise<MessageAttachment[]> {
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    if (unique.length > MAX_ATTACHMENTS_PER_MESSAGE) throw new ValidationFailedError(TOO_MANY_ATTACHMENTS);
    const found = await this.rows.lockUnattached(tx, scope, uploadedTo, unique);
    if (found.length !== unique.length) throw new ValidationFailedError(UNKNOWN_ATTACHMENTS);
    await this.rows.attach(tx, messageId, chatId, unique);
    const byId = new Map(found.map((row) => [row.id, row]));
    return unique.map((id) => this.view(byId.get(id) as AttachmentRow));
  }

  /** The uploads' names, for a message's preview in the chat list when it has no text. */
  async namesOf(
    tx: Tx,
    scope: OwnerScope,
    uploadedTo: string | null,
    ids: readonly string[],
  ): Promise<string[]> {
    const found = await this.rows.lockUnattached(tx, scope, uploadedTo, [
      ...new Set(ids.map((id) => id.toLowerCase())),
    ]);
    return found.map((row) => row.name);
  }

  /** The attachments of messages of a chat the caller has checked, by message id, with fresh links. */
  async ofMessages(messageIds: readonly string[]): Promise<Map<string, MessageAttachment[]>> {
    const byMessage = new Map<string, MessageAttachment[]>();
    for (const row of await this.rows.ofMessages(messageIds)) {
      const list = byMessage.get(row.messageId as string) ?? [];
      list.push(this.view(row));
      byMessage.set(row.messageId as string, list);
    }
    return byMessage;
  }

  /** The files of a message as its agent's webhook gets them: absolute links valid for a few minutes. */
  async forAgent(messageId: string): Promise<AgentFile[]> {
    const expires = Date.now() / 1000 + this.config.attachments.agentLinkMinutes * 60;
    return (await this.rows.ofMessages([messageId])).map((row) => ({
      id: row.id,
      name: row.name,
      mimeType: row.mimeType,
      size: row.size,
      url: `${this.config.appOrigin}${signAttachmentPath(this.linkKey, row.id, expires)}`,
    }));
  }

  /** forAgent for an agent that cannot fetch: small files' bytes in the body, the others as links. */
  async forAgentInline(messageId: string): Promise<AgentFile[]> {
    const linked = await this.forAgent(messageId);
    let budget = INLINE_TOTAL_MAX_BYTES;
    const out: AgentFile[] = [];
    for (const file of linked) {
      if (file.size > INLINE_FILE_MAX_BYTES || file.size > budget) {
        out.push(file);
        continue;
      }
      budget -= file.size;
      const pieces: Buffer[] = [];
      for await (const piece of await this.store.read(file.id)) pieces.push(piece as Buffer);
      const { id, name, mimeType, size } = file;
      out.push({ id, name, mimeType, size, fileName: name, data: Buffer.concat(pieces).toString('base64') });
    }
    return out;
  }

  /**
   * Absolute signed links for a chat's export, valid until `expiresAt` (seconds): the end of the next
   * whole hour, like the links the chat screen gets.
   */
  exportLinks(): { expiresAt: number; link: (fileId: string) => string } {
    const expiresAt = userLinkExpiry();
    return {
      expiresAt,
      link: (fileId) => `${this.config.appOrigin}${signAttachmentPath(this.linkKey, fileId, expiresAt)}`,
    };
  }

  /** A file's bytes, streamed from the store, for a caller that has checked the file's chat is the user's. */
  bytesOf(fileId: string): Promise<Readable> {
    return this.store.read(fileId);
  }

  /** A file's bytes for its signed link: 404 for no link or a wrong one, 410 for an expired one. */
  async open(id: string, expires: unknown, sig: unknown): Promise<AttachmentContent> {
    const link = checkAttachmentLink(this.linkKey, id, expires, sig);
    if (link === 'invalid') throw new NotFoundError(ATTACHMENT_NOT_FOUND);
    const row = await this.rows.find(id);
    if (!row) throw new NotFoundError(ATTACHMENT_NOT_FOUND);
    if (link === 'expired') throw new GoneError(ATTACHMENT_LINK_EXPIRED);
    return {
      name: row.name,
      mimeType: row.mimeType,
      size: row.size,
      kind: row.kind,
      body: await this.store.read(id),
    };
  }

  /**
   * A file from an agent's answer, stored as an upload to the chat (same type and size rules, images
   * re-encoded): fetched through the SSRF guard, or decoded from base64. Null, logged, when it cannot
   * be: the reply is stored without it.
   */
  async storeFromAgent(
    target: { userId: string; companyId: string; chatId: string },
    file: ReplyFile,
    fetchRules: { allowedHosts: ReadonlySet<string>; timeoutMs: number },
  ): Promise<string | null> {
    try {
      let body: Readable;
      let declared: number | undefined;
      if ('url' in file) {
        body = await guardedGet(file.url, fetchRules);
        const length = (body as IncomingMessage).headers?.['content-length'];
        declared = length && /^\d+$/.test(length) ? Number(length) : undefined;
      } else {
        const bytes = Buffer.from(file.data, 'base64');
        body = Readable.from([bytes]);
        declared = bytes.length;
      }
      const stored = await this.upload(target, target.chatId, file.name, body, declared);
      return stored.id;
    } catch (error) {
      this.logger.warn(`A file of the agent's reply was not stored (${file.name}): ${String(error)}`);
      return null;
    }
  }

  /** Links files stored from an agent's answer to the reply message, and returns them for its view. */
  async attachToReply(
    messageId: string,
    chatId: string,
    ids: readonly string[],
  ): Promise<MessageAttachment[]> {
    if (!ids.length) return [];
    await this.rows.attachInChat(messageId, chatId, ids);
    return (await this.ofMessages([messageId])).get(messageId) ?? [];
  }

  /** Files stored for a reply that was not stored after all. */
  async discardUnsent(ids: readonly string[]): Promise<void> {
    if (ids.length) await this.discard(ids.map((id) => ({ id, storage: this.store.kind })));
  }

  /**
   * Read in the transaction that deletes a chat (or an agent with its chats, or a company): how many
   * files and bytes go with it, for the audit log, and the ids whose bytes the rows' cascade does not
   * reach (removeExternal after the commit). The stored-bytes quota counts the rows, so it is freed by
   * the delete itself.
   */
  removalSummary(tx: Tx, where: FilesOf): Promise<{ files: number; bytes: number; externalIds: string[] }> {
    return this.rows.summaryOf(tx, where);
  }

  /** After a chat's (agent's, company's) rows are gone: their bytes in the bucket. Logged, not thrown: the delete stands. */
  async removeExternal(ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    try {
      await this.store.remove(ids);
    } catch (error) {
      this.logger.error(`Could not delete ${ids.length} files' bytes from the store: ${String(error)}`);
    }
  }

  onApplicationShutdown(): void {
    this.stopping = true;
  }

  /** Uploads no message took within a day: rows and bytes. */
  async sweepUnattached(): Promise<number> {
    const removed = await this.rows.removeUnattached(UNATTACHED_TTL_MS, 500);
    await this.removeExternal(removed.filter((row) => row.storage === 's3').map((row) => row.id));
    return removed.length;
  }

  /** Whether the bytes live in a bucket, where cut multipart uploads can be left behind. */
  get storesInBucket(): boolean {
    return this.store.kind === 's3';
  }

  /** Incomplete multipart uploads abandoned in the bucket (see AttachmentStore); null: none to look for. */
  async abortAbandonedUploads(): Promise<{ aborted: number; gone: number } | null> {
    return (await this.store.abortAbandonedUploads?.()) ?? null;
  }

  private async discard(files: Array<{ id: string; storage: string }>): Promise<void> {
    const ids = files.map((f) => f.id);
    const removeBytes = () => this.store.remove(files.filter((f) => f.storage === 's3').map((f) => f.id));
    try {
      await this.rows.remove(ids);
    } catch (error) {
      if (!isConnectionError(error) || this.stopping) {
        // The sweep removes what is left of an unattached upload.
        this.logger.warn(`Could not discard a refused upload: ${String(error)}`);
        return;
      }
      // PostgreSQL went away (most likely why the upload failed): the half-written file (its row, the
      // chunks written so far, the quota it holds) goes as soon as the database answers again, not a day
      // later with the sweep. The caller's answer does not wait for that.
      void untilDatabaseAnswers(
        'Discarding an upload cut by a database outage',
        () => this.rows.remove(ids),
        {
          giveUpAfterMs: DISCARD_RETRY_MS,
          stopping: () => this.stopping,
        },
      )
        .then(removeBytes)
        .catch((late: unknown) => this.logger.warn(`Could not discard a cut upload: ${String(late)}`));
      return;
    }
    try {
      await removeBytes();
    } catch (error) {
      // No row refers to these bytes any more; the bucket's lifecycle rules clean them up.
      this.logger.warn(`Could not delete a refused upload's bytes from the store: ${String(error)}`);
    }
  }

  private view(row: AttachmentRow): MessageAttachment {
    const view: MessageAttachment = {
      id: row.id,
      name: row.name,
      mimeType: row.mimeType,
      size: row.size,
      kind: row.kind,
      url: signAttachmentPath(this.linkKey, row.id, userLinkExpiry()),
    };
    if (row.width !== null && row.height !== null) {
      view.width = row.width;
      view.height = row.height;
    }
    return view;
  }
}

function dims(d: { width: number; height: number } | null): { width: number | null; height: number | null } {
  return { width: d?.width ?? null, height: d?.height ?? null };
}

async function* toAsync(bytes: AsyncIterable<Buffer> | Buffer[]): AsyncGenerator<Buffer> {
  for await (const piece of bytes) yield piece;
}
