import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUUID, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../common/validation';
import {
  PLATFORM_PAGE_SIZE_MAX,
  type PlatformAgentPage,
  type PlatformAgentView,
} from '../contracts/platform-admin';
import { PlatformPersonDto } from './companies.dto';
import { PageLimit } from '../common/paging';

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

  @PageLimit(PLATFORM_PAGE_SIZE_MAX)
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
