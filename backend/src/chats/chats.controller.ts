import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CompanyMemberGuard, CurrentCompany, type CompanyScope } from '../companies/company-member.guard';
import { CurrentUser, type AuthUser } from '../common/current-user.decorator';
import { ChatsService } from './chats.service';
import {
  ChatDto,
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

@ApiTags('chats')
@ApiBearerAuth()
@ApiHeader({ name: 'X-Company-Id', required: true, description: 'The current company' })
@UseGuards(CompanyMemberGuard)
@Controller()
export class ChatsController {
  constructor(private readonly chats: ChatsService) {}

  @Get('chats')
  @ApiOkResponse({ type: [ChatDto] })
  list(
    @CurrentUser() user: AuthUser,
    @CurrentCompany() company: CompanyScope,
    @Query() query: ListChatsQuery,
  ): Promise<ChatDto[]> {
    return this.chats.list(user.id, company.companyId, query.archived ?? false);
  }

  @Post('chats')
  @ApiCreatedResponse({ type: ChatDto })
  create(
    @CurrentUser() user: AuthUser,
    @CurrentCompany() company: CompanyScope,
    @Body() body: CreateChatDto,
  ): Promise<ChatDto> {
    return this.chats.create(user.id, company.companyId, body.agentId, body.title);
  }

  @Get('chats/:id')
  @ApiOkResponse({ type: ChatDto })
  get(
    @CurrentUser() user: AuthUser,
    @CurrentCompany() company: CompanyScope,
    @Param('id') id: string,
  ): Promise<ChatDto> {
    return this.chats.get(user.id, company.companyId, id);
  }

  @Patch('chats/:id')
  @ApiOkResponse({ type: ChatDto, description: 'Rename, archive (isArchived: true) or restore (false)' })
  update(
    @CurrentUser() user: AuthUser,
    @CurrentCompany() company: CompanyScope,
    @Param('id') id: string,
    @Body() body: UpdateChatDto,
  ): Promise<ChatDto> {
    return this.chats.update(user.id, company.companyId, id, body);
  }

  @Delete('chats/:id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(
    @CurrentUser() user: AuthUser,
    @CurrentCompany() company: CompanyScope,
    @Param('id') id: string,
  ): Promise<void> {
    await this.chats.remove(user.id, company.companyId, id);
  }

  @Get('chats/:id/messages')
  @ApiOkResponse({ type: MessagePageDto })
  messages(
    @CurrentUser() user: AuthUser,
    @CurrentCompany() company: CompanyScope,
    @Param('id') id: string,
    @Query() query: MessagePageQuery,
  ): Promise<MessagePageDto> {
    return this.chats.messages(user.id, company.companyId, id, query);
  }

  @Post('chats/:id/messages')
  @ApiCreatedResponse({ type: MessageDto })
  send(
    @CurrentUser() user: AuthUser,
    @CurrentCompany() company: CompanyScope,
    @Param('id') id: string,
    @Body() body: SendMessageDto,
  ): Promise<MessageDto> {
    return this.chats.send(user.id, company.companyId, id, body.content);
  }

  /** The first message with no active chat: creates the chat too. */
  @Post('messages')
  @ApiCreatedResponse({ type: FirstMessageResultDto })
  sendFirst(
    @CurrentUser() user: AuthUser,
    @CurrentCompany() company: CompanyScope,
    @Body() body: SendFirstMessageDto,
  ): Promise<FirstMessageResultDto> {
    return this.chats.sendFirst(user.id, company.companyId, body.agentId, body.content);
  }
}
