import { Body, Controller, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiServiceUnavailableResponse,
} from '@nestjs/swagger';
import { type CompanyScope, CurrentScope } from '../common/company-scope';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { UuidParamPipe } from '../common/uuid';
import { CompanyScoped } from '../companies/company-member.guard';
import { MESSAGE_NOT_FOUND } from '../chats/chats.service';
import { MessageDto } from '../chats/dto/chat.dto';
import type { StartVoiceCallResult } from '../contracts/voice';
import {
  SaveVoiceTurnDto,
  StartVoiceCallDto,
  StartVoiceCallResultDto,
  VoiceFeedbackDto,
} from './dto/voice.dto';
import { VOICE_CALL_NOT_FOUND, VoiceService } from './voice.service';

const MESSAGE_ID = new UuidParamPipe(MESSAGE_NOT_FOUND);
const CALL_ID = new UuidParamPipe(VOICE_CALL_NOT_FOUND);

@CompanyScoped('voice')
@Controller('voice')
export class VoiceController {
  constructor(private readonly voice: VoiceService) {}

  /** Starts a voice call: the connection for the browser (a signed URL, or the public agent id). */
  @Post('sessions')
  @RateLimit('voiceCall')
  @ApiCreatedResponse({ type: StartVoiceCallResultDto })
  @ApiBadGatewayResponse({ description: 'The voice provider refused or failed' })
  @ApiServiceUnavailableResponse({ description: 'The voice provider could not be reached' })
  start(@CurrentScope() scope: CompanyScope, @Body() body: StartVoiceCallDto): Promise<StartVoiceCallResult> {
    return this.voice.start(scope, body.agentId, body.chatId);
  }

  /** The call ended: its transcript turns are refused after a short grace. */
  @Post('sessions/:id/end')
  @HttpCode(204)
  @RateLimit('voiceTranscript')
  @ApiNoContentResponse()
  end(@CurrentScope() scope: CompanyScope, @Param('id', CALL_ID) id: string): Promise<void> {
    return this.voice.end(scope, id);
  }

  /** Saves one final transcript turn of a call (idempotent per provider event). */
  @Post('transcripts')
  @RateLimit('voiceTranscript')
  @ApiCreatedResponse({ type: MessageDto })
  saveTurn(@CurrentScope() scope: CompanyScope, @Body() body: SaveVoiceTurnDto): Promise<MessageDto> {
    return this.voice.saveTurn(scope, body);
  }

  /** Rates an agent's voice turn: like, dislike, or null. */
  @Put('messages/:id/feedback')
  @RateLimit('voiceFeedback')
  @ApiOkResponse({ type: MessageDto })
  feedback(
    @CurrentScope() scope: CompanyScope,
    @Param('id', MESSAGE_ID) id: string,
    @Body() body: VoiceFeedbackDto,
  ): Promise<MessageDto> {
    return this.voice.setFeedback(scope, id, body.score);
  }
}
