import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Matches, MaxLength } from 'class-validator';

const MESSAGE_REQUIRED = 'Message Required: Please enter a message to send to the webhook';

export class WebhookTestRequestDto {
  @ApiProperty()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: MESSAGE_REQUIRED })
  @Matches(/\S/, { message: MESSAGE_REQUIRED })
  @MaxLength(20_000, { message: 'The message is too long' })
  message: string;
}

export class WebhookTestTargetDto {
  @ApiProperty() url: string;
}

export class WebhookTestResultDto {
  @ApiProperty() url: string;
  @ApiProperty({ description: 'HTTP status, 0 when no answer came' }) status: number;
  @ApiProperty({ description: 'The body as received (or what went wrong)' }) raw: string;
  @ApiProperty({ description: "The reply as a chat would show it (the spec's parsing)" }) output: string;
  @ApiProperty() ok: boolean;
}
