import { Controller, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { type CompanyScope, CurrentScope } from '../common/company-scope';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { UuidParamPipe } from '../common/uuid';
import { CompanyScoped } from '../companies/company-member.guard';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { MessageAttachment } from '../contracts/chats';
import { withUploadedFile } from '../files/multipart-upload';
import { CHAT_NOT_FOUND, ChatsService } from './chats.service';

const CHAT_ID = new UuidParamPipe(CHAT_NOT_FOUND);

@CompanyScoped('chats')
@Controller()
export class ChatAttachmentsController {
  constructor(
    private readonly chats: ChatsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** One file (multipart field `file`) for the next message in one of the caller's chats, streamed. */
  @Post('chats/:id/attachments')
  @RateLimit('attachFile')
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiCreatedResponse({ description: "The upload: its id goes in the next message's attachmentIds" })
  async upload(
    @CurrentScope() scope: CompanyScope,
    @Param('id', CHAT_ID) id: string,
    @Req() req: Request,
  ): Promise<MessageAttachment> {
    // The chat is checked before a byte is stored. The request's length (a little more than the file's)
    // is what the upload holds of the company's stored-bytes quota while it streams.
    await this.chats.get(scope, id);
    const declared = declaredLength(req);
    return withUploadedFile(req, this.config.attachments.maxBytes, (name, file) =>
      this.chats.uploadAttachment(scope, id, name, file, declared),
    );
  }

  /**
   * One file for a first message, before its chat exists (the welcome view): its id goes in
   * POST /api/messages' attachmentIds, which creates the chat. Same rules as a chat's upload.
   */
  @Post('attachments')
  @RateLimit('attachFile')
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiCreatedResponse({ description: "The upload: its id goes in POST /api/messages' attachmentIds" })
  uploadFirst(@CurrentScope() scope: CompanyScope, @Req() req: Request): Promise<MessageAttachment> {
    return withUploadedFile(req, this.config.attachments.maxBytes, (name, file) =>
      this.chats.uploadFirstAttachment(scope, name, file, declaredLength(req)),
    );
  }
}

/** The request's Content-Length, when it gives one. */
function declaredLength(req: Request): number | undefined {
  const length = req.headers['content-length'];
  return length && /^\d+$/.test(length) ? Number(length) : undefined;
}
