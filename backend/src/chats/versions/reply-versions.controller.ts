import { Body, Controller, Get, HttpCode, Ip, Param, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { type CompanyScope, CurrentScope } from '../../common/company-scope';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { UuidParamPipe } from '../../common/uuid';
import { CompanyScoped } from '../../companies/company-member.guard';
import type {
  EditMessageRequest,
  MessageVersions,
  MessageVersionView,
  ReplyRequested,
} from '../../contracts/chats';
import { MESSAGE_NOT_FOUND } from '../chats.service';
import { ChatDto, MessageDto } from '../dto/chat.dto';
import { ReplyVersionsService } from './reply-versions.service';

const MESSAGE_ID = new UuidParamPipe(MESSAGE_NOT_FOUND);

export class EditMessageDto implements EditMessageRequest {
  @ApiProperty({ description: 'The new text of the message', maxLength: 100_000 })
  @IsString({ message: 'content must be text' })
  @MaxLength(100_000, { message: 'A message can be at most 100000 characters' })
  content: string;
}

class ReplyRequestedDto implements ReplyRequested {
  @ApiProperty({ type: MessageDto, description: 'The user message as now shown' }) message: MessageDto;
  @ApiProperty({ nullable: true, type: String, description: 'The reply moved to its versions' })
  replacedReplyId: string | null;
  @ApiProperty({ type: ChatDto }) chat: ChatDto;
}

class MessageVersionDto implements MessageVersionView {
  @ApiProperty() id: string;
  @ApiProperty() version: number;
  @ApiProperty() content: string;
  @ApiProperty() timestamp: string;
  @ApiProperty({ enum: ['like', 'dislike'], nullable: true, type: String }) feedback:
    'like' | 'dislike' | null;
  @ApiProperty({ nullable: true, type: String }) feedbackReason: string | null;
  @ApiProperty({ enum: ['stopped', 'timeout', 'error'], nullable: true, type: String })
  interrupted: 'stopped' | 'timeout' | 'error' | null;
  @ApiProperty({ nullable: true, type: String }) interruptedReason: string | null;
  @ApiProperty({ description: 'The shown version' }) current: boolean;
}

class MessageVersionsDto implements MessageVersions {
  @ApiProperty() messageId: string;
  @ApiProperty({ type: [MessageVersionDto], description: 'Oldest first, the shown one last' })
  versions: MessageVersionDto[];
}

/** Regenerate a reply, edit the latest message, browse their versions: the chat's owner only. */
@CompanyScoped('chats')
@Controller()
export class ReplyVersionsController {
  constructor(private readonly versions: ReplyVersionsService) {}

  /** Asks the agent again for the latest reply (`id`: that reply, or the user message it answers). */
  @Post('messages/:id/regenerate')
  @HttpCode(200)
  @RateLimit('sendMessage')
  @ApiOkResponse({ type: ReplyRequestedDto })
  regenerate(
    @CurrentScope() scope: CompanyScope,
    @Param('id', MESSAGE_ID) id: string,
  ): Promise<ReplyRequestedDto> {
    return this.versions.regenerate(scope, id);
  }

  /** Edits the chat's latest user message; its reply is asked for again, from the new text. */
  @Patch('messages/:id')
  @RateLimit('sendMessage')
  @ApiOkResponse({ type: ReplyRequestedDto })
  edit(
    @CurrentScope() scope: CompanyScope,
    @Param('id', MESSAGE_ID) id: string,
    @Body() body: EditMessageDto,
    @Ip() ip: string,
  ): Promise<ReplyRequestedDto> {
    return this.versions.edit(scope, id, body.content, ip);
  }

  @Get('messages/:id/versions')
  @ApiOkResponse({ type: MessageVersionsDto })
  list(
    @CurrentScope() scope: CompanyScope,
    @Param('id', MESSAGE_ID) id: string,
  ): Promise<MessageVersionsDto> {
    return this.versions.versions(scope, id);
  }
}
