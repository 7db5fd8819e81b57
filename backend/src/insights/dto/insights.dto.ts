import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsUUID } from 'class-validator';
import { OptionalNotNull } from '../../common/validation';
import type {
  InsightsAgentRow,
  InsightsBucket,
  InsightsCounters,
  InsightsPoint,
  InsightsQuery,
  InsightsReport,
  LatencySummary,
} from '../../contracts/insights';

export const INSIGHTS_BUCKETS: InsightsBucket[] = ['hour', 'day'];

export class InsightsQueryDto implements InsightsQuery {
  @ApiPropertyOptional({ description: 'ISO 8601; 24 hours before `to` by default' })
  @OptionalNotNull()
  @IsISO8601({ strict: true }, { message: 'from must be a date and time (ISO 8601)' })
  from?: string;

  @ApiPropertyOptional({ description: 'ISO 8601; now by default' })
  @OptionalNotNull()
  @IsISO8601({ strict: true }, { message: 'to must be a date and time (ISO 8601)' })
  to?: string;

  @ApiPropertyOptional({ description: 'One agent only' })
  @OptionalNotNull()
  @IsUUID('all', { message: 'agentId must be an agent id' })
  agentId?: string;

  @ApiPropertyOptional({ enum: INSIGHTS_BUCKETS })
  @OptionalNotNull()
  @IsIn(INSIGHTS_BUCKETS, { message: 'bucket must be hour or day' })
  bucket?: InsightsBucket;
}

export class LatencySummaryDto implements LatencySummary {
  @ApiProperty() count: number;
  @ApiProperty({ nullable: true, type: Number }) p50Ms: number | null;
  @ApiProperty({ nullable: true, type: Number }) p95Ms: number | null;
  @ApiProperty({ nullable: true, type: Number }) avgMs: number | null;
}

export class InsightsCountersDto implements InsightsCounters {
  @ApiProperty() messages: number;
  @ApiProperty() replies: number;
  @ApiProperty() activeUsers: number;
  @ApiProperty() chats: number;
  @ApiProperty() failed: number;
  @ApiProperty({
    description:
      'timeout, http_status, malformed, ssrf_refused, callback_expired, network, agent_error, other',
  })
  failures: InsightsCounters['failures'];
  @ApiProperty() retries: number;
  @ApiProperty({ type: LatencySummaryDto }) latency: LatencySummaryDto;
  @ApiProperty({ type: LatencySummaryDto }) firstChunk: LatencySummaryDto;
  @ApiProperty() thumbsUp: number;
  @ApiProperty() thumbsDown: number;
}

export class InsightsAgentRowDto extends InsightsCountersDto implements InsightsAgentRow {
  @ApiProperty() agentId: string;
  @ApiProperty({ nullable: true, type: String }) agentName: string | null;
}

export class InsightsPointDto implements InsightsPoint {
  @ApiProperty() at: string;
  @ApiProperty() messages: number;
  @ApiProperty() replies: number;
  @ApiProperty() failed: number;
  @ApiProperty({ nullable: true, type: Number }) latencyP50Ms: number | null;
  @ApiProperty({ nullable: true, type: Number }) latencyP95Ms: number | null;
}

export class InsightsReportDto implements InsightsReport {
  @ApiProperty() from: string;
  @ApiProperty() to: string;
  @ApiProperty({ enum: INSIGHTS_BUCKETS }) bucket: InsightsBucket;
  @ApiProperty({ type: InsightsCountersDto }) total: InsightsCountersDto;
  @ApiProperty({ type: [InsightsAgentRowDto] }) agents: InsightsAgentRowDto[];
  @ApiProperty({ type: [InsightsPointDto] }) series: InsightsPointDto[];
}
