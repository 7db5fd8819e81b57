import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsISO8601, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { PageLimit } from '../../common/paging';
import { OptionalNotNull } from '../../common/validation';
import {
  type BulkReplayRequest,
  type BulkReplayResult,
  DELIVERY_OUTCOMES,
  DELIVERY_PAGE_SIZE,
  DELIVERY_RETENTION_MAX_DAYS,
  type DeliveryDetail,
  type DeliveryOutcome,
  type DeliveryPage,
  type DeliverySettings,
  type DeliveryView,
} from '../../contracts/deliveries';

const OUTCOME_FILTERS = [...DELIVERY_OUTCOMES, 'failed'] as const;

export class DeliveryListQueryDto {
  @ApiPropertyOptional({ description: 'One agent only' })
  @OptionalNotNull()
  @IsUUID('all', { message: 'agentId must be an agent id' })
  agentId?: string;

  @ApiPropertyOptional({ enum: OUTCOME_FILTERS, description: '`failed`: any failure kind' })
  @OptionalNotNull()
  @IsIn(OUTCOME_FILTERS, { message: `outcome must be one of: ${OUTCOME_FILTERS.join(', ')}` })
  outcome?: DeliveryOutcome | 'failed';

  @ApiPropertyOptional({ description: 'The nextCursor of the page before' })
  @OptionalNotNull()
  @IsString({ message: 'Invalid cursor: load the delivery log again from the start.' })
  @MaxLength(200, { message: 'Invalid cursor: load the delivery log again from the start.' })
  before?: string;

  @PageLimit(DELIVERY_PAGE_SIZE, DELIVERY_PAGE_SIZE)
  limit?: number;
}

export class DeliveryViewDto implements DeliveryView {
  @ApiProperty() id: string;
  @ApiProperty() agentId: string;
  @ApiProperty({ nullable: true, type: String }) agentName: string | null;
  @ApiProperty({ nullable: true, type: String }) chatId: string | null;
  @ApiProperty() messageId: string;
  @ApiProperty({ nullable: true, type: String }) replyId: string | null;
  @ApiProperty() round: number;
  @ApiProperty() startedAt: string;
  @ApiProperty() durationMs: number;
  @ApiProperty() attempts: number;
  @ApiProperty({ enum: DELIVERY_OUTCOMES }) outcome: DeliveryOutcome;
  @ApiProperty({ nullable: true, type: Number }) httpStatus: number | null;
  @ApiProperty() requestId: string;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ nullable: true, type: String }) replayOf: string | null;
  @ApiProperty({ nullable: true, type: String }) replayedAt: string | null;
}

export class DeliveryDetailDto extends DeliveryViewDto implements DeliveryDetail {
  @ApiProperty() bodiesKept: boolean;
  @ApiProperty({ nullable: true, type: Object }) requestHeaders: Record<string, string> | null;
  @ApiProperty({ nullable: true, type: String }) requestBody: string | null;
  @ApiProperty({ nullable: true, type: String }) responseBody: string | null;
}

export class DeliveryPageDto implements DeliveryPage {
  @ApiProperty({ type: [DeliveryViewDto] }) deliveries: DeliveryViewDto[];
  @ApiProperty({ nullable: true, type: String }) nextCursor: string | null;
}

export class BulkReplayDto implements BulkReplayRequest {
  @ApiProperty()
  @IsUUID('all', { message: 'agentId must be an agent id' })
  agentId: string;

  @ApiProperty({ description: 'ISO 8601' })
  @IsISO8601({ strict: true }, { message: 'since must be a date and time (ISO 8601)' })
  since: string;
}

export class BulkReplayResultDto implements BulkReplayResult {
  @ApiProperty() replayed: number;
  @ApiProperty() skipped: number;
  @ApiProperty() overCap: number;
}

export class DeliverySettingsDto implements DeliverySettings {
  @ApiProperty({ minimum: 0, maximum: DELIVERY_RETENTION_MAX_DAYS, description: '0: bodies not kept' })
  @Min(0, { message: 'retentionDays must be 0 (bodies not kept) or more' })
  @Max(DELIVERY_RETENTION_MAX_DAYS, {
    message: `retentionDays must be at most ${DELIVERY_RETENTION_MAX_DAYS}`,
  })
  @IsInt({ message: 'retentionDays must be a whole number of days' })
  retentionDays: number;
}
