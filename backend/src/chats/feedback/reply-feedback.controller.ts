import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { type CompanyScope, CurrentScope } from '../../common/company-scope';
import { RateLimit } from '../../common/rate-limit/rate-limit.decorator';
import { UuidParamPipe } from '../../common/uuid';
import { CompanyScoped } from '../../companies/company-member.guard';
import { MESSAGE_NOT_FOUND } from '../chats.service';
import { MessageDto } from '../dto/chat.dto';
import { RateReplyDto } from './rate-reply.dto';
import { ReplyFeedbackService } from './reply-feedback.service';

const MESSAGE_ID = new UuidParamPipe(MESSAGE_NOT_FOUND);

@CompanyScoped('chats')
@Controller()
export class ReplyFeedbackController {
  constructor(private readonly feedback: ReplyFeedbackService) {}

  /** Rates an agent's reply in one of the caller's chats: like, dislike (with a reason), or null. */
  @Put('messages/:id/feedback')
  @RateLimit('replyFeedback')
  @ApiOkResponse({ type: MessageDto })
  rate(
    @CurrentScope() scope: CompanyScope,
    @Param('id', MESSAGE_ID) id: string,
    @Body() body: RateReplyDto,
  ): Promise<MessageDto> {
    return this.feedback.rate(scope, id, body);
  }
}
