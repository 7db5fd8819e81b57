import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { OptionalNotNull } from '../common/validation';
import {
  PLATFORM_PAGE_SIZE_MAX,
  type PlatformAgentPage,
  type PlatformAgentView,
} from '../contracts/platform-admin';
import { PlatformPersonDto } from './companies.dto';

export class PlatformAgentsQuery {
  @ApiPropertyOptional({ description: 'Only the agents of this company' })
  @OptionalNotNull()
  @IsUUID('all', { message: 'companyId must be a company id' })
  companyId?: string;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @OptionalNotNull()
  @IsString({ message: 'Invalid cursor' })
  @MaxLength(600, { message: 'Invalid cursor' })
  cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: PLATFORM_PAGE_SIZE_MAX })
  @OptionalNotNull()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: `limit must be between 1 and ${PLATFORM_PAGE_SIZE_MAX}` })
  @Max(PLATFORM_PAGE_SIZE_MAX, { message: `limit must be between 1 and ${PLATFORM_PAGE_SIZE_MAX}` })
  limit?: number;
}

class PlatformAgentCompanyDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}

export class PlatformAgentDto implements PlatformAgentView {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: PlatformAgentCompanyDto }) company: PlatformAgentCompanyDto;
  @ApiProperty({ type: PlatformPersonDto, nullable: true }) owner: PlatformPersonDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'Host of the webhook only' })
  webhookHost: string | null;
  @ApiProperty({ type: String, nullable: true }) voiceId: string | null;
  @ApiProperty() isActive: boolean;
  @ApiProperty() isDefault: boolean;
  @ApiProperty() createdAt: string;
}

export class PlatformAgentPageDto implements PlatformAgentPage {
  @ApiProperty({ type: [PlatformAgentDto] }) agents: PlatformAgentDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}
