import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import { FEEDBACK_REASON_MAX, type MessageFeedback, type RateReplyRequest } from '../../contracts/chats';

export class RateReplyDto implements RateReplyRequest {
  @ApiProperty({ enum: ['like', 'dislike'], nullable: true, type: String })
  @ValidateIf((_o, value) => value !== null)
  @IsIn(['like', 'dislike'], { message: 'score must be like, dislike or null' })
  score: MessageFeedback | null;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    maxLength: FEEDBACK_REASON_MAX,
    description: 'Why the reply was unhelpful (kept with a dislike only)',
  })
  @ValidateIf((_o, value) => value !== null && value !== undefined)
  @IsString({ message: 'reason must be text' })
  @MaxLength(FEEDBACK_REASON_MAX, { message: `reason must be at most ${FEEDBACK_REASON_MAX} characters` })
  reason?: string | null;
}
