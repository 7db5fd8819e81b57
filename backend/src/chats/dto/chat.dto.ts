import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateBy,
} from 'class-validator';
import { OptionalNotNull } from '../../common/validation';
import type {
  ChatListQuery,
  ChatPage,
  ChatView,
  CreateChatRequest,
  FirstMessageResult,
  MessagePage,
  MessagePageCursor,
  MessageView,
  SendFirstMessageRequest,
  SendMessageRequest,
  StreamingReply,
  UpdateChatRequest,
} from '../../contracts/chats';
import { MAX_ATTACHMENTS_PER_MESSAGE } from '../../contracts/chats';
import { PageLimit } from '../../common/paging';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

const MAX_BIGINT = 9223372036854775807n;

/** A message `seq` cursor: digits that fit PostgreSQL's bigint (a larger one used to reach the database). */
function IsMessageSeq(message: string): PropertyDecorator {
  return ValidateBy({
    name: 'isMessageSeq',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && /^\d{1,19}$/.test(value) && BigInt(value) <= MAX_BIGINT,
      defaultMessage: () => message,
    },
  });
}
export const MAX_MESSAGE_LENGTH = 20_000;

export class ChatDto implements ChatView {
  @ApiProperty() id: string;
  @ApiProperty() companyId: string;
  @ApiProperty() agentId: string;
  @ApiProperty() title: string;
  @ApiProperty() isArchived: boolean;
  @ApiProperty({ nullable: true, type: String }) lastMessage: string | null;
  @ApiProperty({ nullable: true, type: String }) lastMessageAt: string | null;
  @ApiProperty() pendingReply: boolean;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}

export class MessageDto implements MessageView {
  @ApiProperty() id: string;
  @ApiProperty() chatId: string;
  @ApiProperty() senderId: string;
  @ApiProperty({ enum: ['user', 'agent'] }) senderType: 'user' | 'agent';
  @ApiProperty() content: string;
  @ApiProperty() timestamp: string;
  @ApiProperty() isVoiceMessage: boolean;
  @ApiProperty({ enum: ['like', 'dislike'], nullable: true, type: String }) feedback:
    'like' | 'dislike' | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: "With a dislike: the user's reason" })
  feedbackReason?: string | null;
  @ApiProperty() seq: string;
  @ApiPropertyOptional({
    enum: ['stopped', 'timeout', 'error'],
    nullable: true,
    type: String,
    description: 'On a streamed reply cut short: stopped by the user, the agent stalled, or it sent an error',
  })
  interrupted?: 'stopped' | 'timeout' | 'error' | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: "With interrupted 'error': the agent's message",
  })
  interruptedReason?: string | null;
}

export class StreamingReplyDto implements StreamingReply {
  @ApiProperty({ description: 'The user message the reply answers (message.delta.messageId)' })
  messageId: string;
  @ApiProperty({ description: 'The text so far' }) text: string;
}

export class MessagePageDto implements MessagePage {
  @ApiProperty({ type: [MessageDto], description: 'Oldest first' }) messages: MessageDto[];
  @ApiProperty({ description: 'More, older messages exist before the first one' }) hasMore: boolean;
  @ApiProperty() pendingReply: boolean;
  @ApiPropertyOptional({
    type: StreamingReplyDto,
    nullable: true,
    description: 'While a pending reply streams: its text so far',
  })
  streamingReply?: StreamingReplyDto | null;
}

export class CreateChatDto implements CreateChatRequest {
  @ApiProperty({ example: 'default-agent' })
  @IsString({ message: 'No agent selected' })
  @Matches(/\S/, { message: 'No agent selected' })
  @MaxLength(64, { message: 'Agent not found' })
  agentId: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @Transform(trim)
  @IsString({ message: 'Title must be text' })
  @Matches(/\S/, { message: 'Title is required' })
  @MaxLength(200, { message: 'Title must be at most 200 characters' })
  title?: string;
}

export class UpdateChatDto implements UpdateChatRequest {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @Transform(trim)
  @IsString({ message: 'Title must be text' })
  @Matches(/\S/, { message: 'Title is required' })
  @MaxLength(200, { message: 'Title must be at most 200 characters' })
  title?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean({ message: 'isArchived must be true or false' })
  isArchived?: boolean;
}

/** Whether a send request carries files: then its text may be empty or absent. */
const withFiles = (o: object): boolean => {
  const ids = (o as { attachmentIds?: unknown }).attachmentIds;
  return Array.isArray(ids) && ids.length > 0;
};

/** Text that is not blank, at most MAX_MESSAGE_LENGTH; with files it may be empty or absent. */
function isMessageContent(value: unknown, files: boolean): boolean {
  if (value === undefined || value === null) return files;
  if (typeof value !== 'string' || value.length > MAX_MESSAGE_LENGTH) return false;
  return files || /\S/.test(value);
}

function IsMessageContent(): PropertyDecorator {
  return ValidateBy({
    name: 'isMessageContent',
    validator: {
      validate: (value: unknown, args) => isMessageContent(value, args ? withFiles(args.object) : false),
      defaultMessage: (args) =>
        typeof args?.value === 'string' && args.value.length > MAX_MESSAGE_LENGTH
          ? `A message can be at most ${MAX_MESSAGE_LENGTH} characters`
          : 'Please enter a message',
    },
  });
}

export class SendMessageDto implements SendMessageRequest {
  @ApiProperty({ description: 'Optional when attachmentIds has a file' })
  @Transform(trim)
  @IsMessageContent()
  content: string;

  @ApiPropertyOptional({ type: [String], description: 'Uploads to send with the message, at most 10' })
  @OptionalNotNull()
  @IsArray({ message: 'attachmentIds must be a list of file ids' })
  @ArrayMaxSize(MAX_ATTACHMENTS_PER_MESSAGE, {
    message: `A message can carry at most ${MAX_ATTACHMENTS_PER_MESSAGE} files.`,
  })
  @IsUUID('all', { each: true, message: 'An attached file was not found. Please attach it again.' })
  attachmentIds?: string[];
}

/**
 * The common send, `{ "content": "text" }` and nothing else, checked with the DTO's own rules (trim, then
 * isMessageContent) but without the global ValidationPipe: class-transformer and class-validator look the
 * DTO up among every DTO of the app on each call, most of the lean send route's own CPU. The DTO the pipe
 * makes of such a body, or null for any other body, which then goes through the pipe: every refusal, and
 * every message of one, still comes from the pipe. send-message.dto.spec.ts holds the two to the same
 * answers and fails when the DTO gains a rule this does not apply.
 */
export function plainSendMessage(body: unknown): SendMessageDto | null {
  if (typeof body !== 'object' || body === null) return null;
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== 'content') return null;
  const content = trim({ value: (body as { content: unknown }).content });
  if (typeof content !== 'string' || !isMessageContent(content, false)) return null;
  return Object.assign(new SendMessageDto(), { content });
}

export class SendFirstMessageDto extends SendMessageDto implements SendFirstMessageRequest {
  @ApiProperty({ example: 'default-agent' })
  @IsString({ message: 'No agent selected' })
  @Matches(/\S/, { message: 'No agent selected' })
  @MaxLength(64, { message: 'Agent not found' })
  agentId: string;
}

export class FirstMessageResultDto implements FirstMessageResult {
  @ApiProperty({ type: ChatDto }) chat: ChatDto;
  @ApiProperty({ type: MessageDto }) message: MessageDto;
}

export class ListChatsQuery implements ChatListQuery {
  @ApiPropertyOptional({ description: 'true: the Archived tab' })
  @OptionalNotNull()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'archived must be true or false' })
  archived?: boolean;

  @PageLimit(200, 50)
  limit?: number;

  @ApiPropertyOptional({ description: "The previous page's nextCursor" })
  @OptionalNotNull()
  @IsString({ message: 'Invalid cursor' })
  @MaxLength(200, { message: 'Invalid cursor' })
  cursor?: string;
}

export class ChatPageDto implements ChatPage {
  @ApiProperty({ type: [ChatDto], description: 'Newest first' }) chats: ChatDto[];
  @ApiProperty({ nullable: true, type: String, description: 'The next page; null on the last' })
  nextCursor: string | null;
}

export class MessagePageQuery implements MessagePageCursor {
  @ApiPropertyOptional({ description: 'seq cursor: messages older than this' })
  @OptionalNotNull()
  @IsMessageSeq('before must be a message seq')
  before?: string;

  @ApiPropertyOptional({ description: 'seq cursor: messages newer than this (resync after reconnect)' })
  @OptionalNotNull()
  @IsMessageSeq('after must be a message seq')
  after?: string;

  @PageLimit(200, 50)
  limit?: number;
}
