import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiProperty } from '@nestjs/swagger';
import { type CompanyScope, CurrentScope } from '../../common/company-scope';
import { UuidParamPipe } from '../../common/uuid';
import { CompanyScoped } from '../../companies/company-member.guard';
import type { StopReplyResult } from '../../contracts/chats';
import { CHAT_NOT_FOUND } from '../chats.service';
import { ReplyStreamingService } from './reply-streaming.service';

class StopReplyResultDto implements StopReplyResult {
  @ApiProperty({ description: 'False when no reply was pending' }) stopped: boolean;
}

/** Stop: a member of the company, owner of the chat, ends its pending reply (what came is kept). */
@CompanyScoped('chats')
@Controller()
export class ReplyStopController {
  constructor(private readonly streaming: ReplyStreamingService) {}

  @Post('chats/:id/stop')
  @HttpCode(200)
  @ApiOkResponse({ type: StopReplyResultDto })
  stop(
    @CurrentScope() scope: CompanyScope,
    @Param('id', new UuidParamPipe(CHAT_NOT_FOUND)) id: string,
  ): Promise<StopReplyResultDto> {
    return this.streaming.stop(scope, id);
  }
}
