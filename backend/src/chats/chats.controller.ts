import { Body, Controller, Delete, Get, HttpCode, Ip, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse } from '@nestjs/swagger';
import { type CompanyScope, CurrentScope } from '../common/company-scope';
import { UuidParamPipe } from '../common/uuid';
import { CompanyScoped } from '../companies/company-member.guard';
import { CHAT_NOT_FOUND, ChatsService } from './chats.service';
import {
  ChatDto,
  ChatPageDto,
  CreateChatDto,
  FirstMessageResultDto,
  ListChatsQuery,
  MessageDto,
  MessagePageDto,
  MessagePageQuery,
  SendFirstMessageDto,
  SendMessageDto,
  UpdateChatDto,
} from './dto/chat.dto';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';

export const CHAT_ID = new UuidParamPipe(CHAT_NOT_FOUND);

/** The hot route's path, also matched by the lean send-message route (send-message.route.ts). */
export const SEND_MESSAGE_PATH = 'chats/:id/messages';

@CompanyScoped('chats')
@Controller()
export class ChatsController {
  constructor(private readonly chats: ChatsService) {}

  @Get('chats')
  @ApiOkResponse({ type: ChatPageDto, description: 'One page, newest first; nextCursor for the next' })
  list(@CurrentScope() scope: CompanyScope, @Query() query: ListChatsQuery): Promise<ChatPageDto> {
    return this.chats.list(scope, query);
  }

  @Post('chats')
  @ApiCreatedResponse({ type: ChatDto })
  create(@CurrentScope() scope: CompanyScope, @Body() body: CreateChatDto): Promise<ChatDto> {
    return this.chats.create(scope, body.agentId, body.title);
  }

  @Get('chats/:id')
  @ApiOkResponse({ type: ChatDto })
  get(@CurrentScope() scope: CompanyScope, @Param('id', CHAT_ID) id: string): Promise<ChatDto> {
    return this.chats.get(scope, id);
  }

  @Patch('chats/:id')
  @ApiOkResponse({ type: ChatDto, description: 'Rename, archive (isArchived: true) or restore (false)' })
  update(
    @CurrentScope() scope: CompanyScope,
    @Param('id', CHAT_ID) id: string,
    @Body() body: UpdateChatDto,
  ): Promise<ChatDto> {
    return this.chats.update(scope, id, body);
  }

  @Delete('chats/:id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(
    @CurrentScope() scope: CompanyScope,
    @Param('id', CHAT_ID) id: string,
    @Ip() ip: string,
  ): Promise<void> {
    await this.chats.remove(scope, id, ip);
  }

  @Get('chats/:id/messages')
  @ApiOkResponse({ type: MessagePageDto })
  messages(
    @CurrentScope() scope: CompanyScope,
    @Param('id', CHAT_ID) id: string,
    @Query() query: MessagePageQuery,
  ): Promise<MessagePageDto> {
    return this.chats.messages(scope, id, query);
  }

  /** Answered by the lean send-message route (send-message.route.ts) in the app; here in Nest's terms. */
  @Post(SEND_MESSAGE_PATH)
  @RateLimit('sendMessage')
  @ApiCreatedResponse({ type: MessageDto })
  send(
    @CurrentScope() scope: CompanyScope,
    @Param('id', CHAT_ID) id: string,
    @Body() body: SendMessageDto,
  ): Promise<MessageDto> {
    return this.chats.send(scope, id, body.content ?? '', body.attachmentIds);
  }

  /** The first message with no active chat: creates the chat too. */
  @Post('messages')
  @RateLimit('sendMessage')
  @ApiCreatedResponse({ type: FirstMessageResultDto })
  sendFirst(
    @CurrentScope() scope: CompanyScope,
    @Body() body: SendFirstMessageDto,
  ): Promise<FirstMessageResultDto> {
    return this.chats.sendFirst(scope, body.agentId, body.content ?? '', body.attachmentIds);
  }
}
