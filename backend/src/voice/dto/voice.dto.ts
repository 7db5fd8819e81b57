import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString, IsUUID, Matches, MaxLength, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '../../common/validation';
import type { MessageFeedback } from '../../contracts/chats';
import type {
  SaveVoiceTurnRequest,
  StartVoiceCallRequest,
  VoiceConnection,
  VoiceFeedbackRequest,
  VoiceTurnRole,
} from '../../contracts/voice';
import { ChatDto, MAX_MESSAGE_LENGTH } from '../../chats/dto/chat.dto';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Provider ids (conversation and event): letters, digits and a few separators, nothing else. */
const PROVIDER_ID = /^[A-Za-z0-9_.:-]+$/;

export class StartVoiceCallDto implements StartVoiceCallRequest {
  @ApiProperty({ description: "The agent's id (a uuid; the default agent has no voice agent id)" })
  @IsString({ message: 'No agent selected' })
  @Matches(/\S/, { message: 'No agent selected' })
  @MaxLength(64, { message: 'Agent not found' })
  agentId: string;

  @ApiPropertyOptional({ description: "The chat on screen; left out, a new 'Chat with {agent}'" })
  @OptionalNotNull()
  @IsUUID('all', { message: 'Chat not found' })
  chatId?: string;
}

export class VoiceConnectionDto {
  @ApiProperty({ enum: ['signed', 'public'] }) mode: VoiceConnection['mode'];
  @ApiPropertyOptional({ description: 'mode signed: the URL the provider signed for this call' })
  signedUrl?: string;
  @ApiPropertyOptional({ description: "mode public: the provider's agent id" }) agentId?: string;
  @ApiPropertyOptional({ description: 'mode public: the websocket origin' }) origin?: string;
  @ApiPropertyOptional({ description: 'mode public: the conversation URL' }) url?: string;
}

export class StartVoiceCallResultDto {
  @ApiProperty({ type: ChatDto }) chat: ChatDto;
  @ApiProperty() chatCreated: boolean;
  @ApiProperty({ type: VoiceConnectionDto }) connection: VoiceConnection;
  @ApiProperty({ description: 'This call, named by its transcript turns' }) callId: string;
}

export class SaveVoiceTurnDto implements SaveVoiceTurnRequest {
  @ApiProperty({ description: 'The call, as POST /api/voice/sessions issued it' })
  @IsUUID('all', { message: 'Voice call not found. Start a call to save its transcript.' })
  callId: string;

  @ApiProperty()
  @IsUUID('all', { message: 'Chat not found' })
  chatId: string;

  @ApiProperty({ enum: ['user', 'agent'] })
  @IsIn(['user', 'agent'], { message: 'role must be user or agent' })
  role: VoiceTurnRole;

  @ApiProperty()
  @Transform(trim)
  @IsString({ message: 'Please enter a message' })
  @Matches(/\S/, { message: 'Please enter a message' })
  @MaxLength(MAX_MESSAGE_LENGTH, { message: `A message can be at most ${MAX_MESSAGE_LENGTH} characters` })
  text: string;

  @ApiProperty({ description: "The provider's conversation id" })
  @IsString({ message: 'conversationId is required' })
  @Matches(PROVIDER_ID, { message: 'conversationId is not a conversation id' })
  @MaxLength(120, { message: 'conversationId is not a conversation id' })
  conversationId: string;

  @ApiProperty({ description: "The provider's event id of the turn" })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'number' ? String(value) : value))
  @IsString({ message: 'eventId is required' })
  @Matches(PROVIDER_ID, { message: 'eventId is not an event id' })
  @MaxLength(60, { message: 'eventId is not an event id' })
  eventId: string;
}

export class VoiceFeedbackDto implements VoiceFeedbackRequest {
  @ApiProperty({ enum: ['like', 'dislike'], nullable: true, type: String })
  @ValidateIf((_o, value) => value !== null)
  @IsIn(['like', 'dislike'], { message: 'score must be like, dislike or null' })
  score: MessageFeedback | null;
}
