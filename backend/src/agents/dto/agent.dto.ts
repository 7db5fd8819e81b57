import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { OptionalNotNull } from '../../common/validation';
import type {
  AgentView,
  AgentWithSecret,
  CreateAgentRequest,
  UpdateAgentRequest,
} from '../../contracts/agents';

export const REPLY_DEADLINE_RULE = 'The reply deadline must be a whole number of minutes from 1 to 60';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const cleanQuestions = ({ value }: { value: unknown }) =>
  Array.isArray(value)
    ? value.map((q) => (typeof q === 'string' ? q.trim() : q)).filter((q) => q !== '')
    : value;

export class AgentDto implements AgentView {
  @ApiProperty({ example: 'default-agent' }) id: string;
  @ApiProperty() companyId: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty() avatar: string;
  @ApiProperty({ nullable: true, type: String }) webhook: string | null;
  @ApiProperty({ type: [String] }) defaultQuestions: string[];
  @ApiProperty({ nullable: true, type: String }) elevenlabsAgentId: string | null;
  @ApiProperty() hasSigningSecret: boolean;
  @ApiProperty({ minimum: 1, maximum: 60 }) callbackDeadlineMinutes: number;
  @ApiProperty() sendFeedback: boolean;
  @ApiPropertyOptional() sendFilesInline?: boolean;
  @ApiProperty() isDefault: boolean;
  @ApiProperty() isEditable: boolean;
  @ApiProperty() isActive: boolean;
  @ApiProperty() createdAt: string;
}

export class CreateAgentDto implements CreateAgentRequest {
  @ApiProperty({ example: 'Support bot' })
  @Transform(trim)
  @IsString({ message: 'Agent name is required' })
  @Matches(/\S/, { message: 'Agent name is required' })
  @MaxLength(100, { message: 'Agent name must be at most 100 characters' })
  name: string;

  @ApiPropertyOptional({ example: 'Answers questions about our product' })
  @OptionalNotNull()
  @Transform(trim)
  @IsString({ message: 'Description must be text' })
  @MaxLength(500, { message: 'Description must be at most 500 characters' })
  description?: string;

  @ApiProperty({ example: 'https://n8n.example.com/webhook/support' })
  @Transform(trim)
  @IsString({ message: 'Webhook URL is required' })
  @Matches(/\S/, { message: 'Webhook URL is required' })
  @MaxLength(2000, { message: 'Webhook URL must be at most 2000 characters' })
  webhook: string;

  @ApiPropertyOptional({ type: [String], maxItems: 4 })
  @OptionalNotNull()
  @Transform(cleanQuestions)
  @IsArray({ message: 'Default questions must be a list' })
  @ArrayMaxSize(4, { message: 'You can only have up to 4 default questions' })
  @IsString({ each: true, message: 'Each default question must be text' })
  @MaxLength(300, { each: true, message: 'Each default question must be at most 300 characters' })
  defaultQuestions?: string[];

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @Transform(trim)
  @ValidateIf((_o, v) => v !== null)
  @IsString({ message: 'Voice agent id must be text' })
  @MaxLength(200, { message: 'Voice agent id must be at most 200 characters' })
  elevenlabsAgentId?: string | null;

  @ApiPropertyOptional({ description: 'true: generate a new signing secret; false: remove it' })
  @OptionalNotNull()
  @IsBoolean({ message: 'signed must be true or false' })
  signed?: boolean;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 60,
    default: 10,
    description: 'Minutes the agent has to deliver a reply by callback after answering 202 Accepted',
  })
  @OptionalNotNull()
  @IsInt({ message: REPLY_DEADLINE_RULE })
  @Min(1, { message: REPLY_DEADLINE_RULE })
  @Max(60, { message: REPLY_DEADLINE_RULE })
  callbackDeadlineMinutes?: number;

  @ApiPropertyOptional({
    default: false,
    description: "POST a `feedback` event to the webhook when the user rates one of the agent's replies",
  })
  @OptionalNotNull()
  @IsBoolean({ message: 'sendFeedback must be true or false' })
  sendFeedback?: boolean;

  @ApiPropertyOptional({
    default: false,
    description: 'Send small files in the webhook body as base64 (n8n chat trigger shape) instead of links',
  })
  @OptionalNotNull()
  @IsBoolean({ message: 'sendFilesInline must be true or false' })
  sendFilesInline?: boolean;
}

/** Every field of CreateAgentDto, optional, with the same rules; plus switching the agent on or off. */
export class UpdateAgentDto
  extends PartialType(CreateAgentDto, { skipNullProperties: false })
  implements UpdateAgentRequest
{
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean({ message: 'isActive must be true or false' })
  isActive?: boolean;
}

export class AgentWithSecretDto extends AgentDto implements AgentWithSecret {
  @ApiPropertyOptional({ description: 'Shown once, when generated' }) signingSecret?: string;
}
