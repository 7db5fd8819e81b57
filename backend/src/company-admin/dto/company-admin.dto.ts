import { CompanyQuotaUsageDto } from '../../quotas/company-quotas.dto';
import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { CreateAgentDto } from '../../agents/dto/agent.dto';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation';
import { COMPANY_ROLES } from '../../companies/company-user.entity';
import type { CompanyRole } from '../../contracts/companies';
import type {
  CompanyAgentView,
  CompanyDetails,
  CreateCompanyAgentRequest,
  MemberListQuery,
  MemberPage,
  MemberView,
  UpdateCompanyAgentRequest,
  UpdateCompanyRequest,
  UpdateMemberRoleRequest,
} from '../../contracts/company-admin';
import type { PersonRef } from '../../contracts/invitations';
import { PageLimit } from '../../common/paging';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class PersonRefDto implements PersonRef {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
}

export class MemberDto implements MemberView {
  @ApiProperty() userId: string;
  @ApiProperty() name: string;
  @ApiProperty() email: string;
  @ApiProperty() avatar: string;
  @ApiProperty({ enum: COMPANY_ROLES }) role: CompanyRole;
  @ApiProperty() joinedAt: string;
}

export class MemberListQueryDto implements MemberListQuery {
  @ApiPropertyOptional({ description: 'Part of a name or email' })
  @OptionalNotNull()
  @Transform(trim)
  @IsString({ message: 'search must be text' })
  @MaxLength(200, { message: 'search must be at most 200 characters' })
  search?: string;

  @PageLimit(200, 50)
  limit?: number;

  @ApiPropertyOptional({ description: "The previous page's nextCursor" })
  @OptionalNotNull()
  @IsString({ message: 'Invalid cursor' })
  @MaxLength(200, { message: 'Invalid cursor' })
  cursor?: string;
}

export class MemberPageDto implements MemberPage {
  @ApiProperty({ type: [MemberDto], description: 'Oldest member first' }) members: MemberDto[];
  @ApiProperty({ nullable: true, type: String }) nextCursor: string | null;
}

export class UpdateMemberRoleDto implements UpdateMemberRoleRequest {
  @ApiProperty({ enum: COMPANY_ROLES, example: 'admin' })
  @IsIn(COMPANY_ROLES, { message: 'Role must be owner, admin or user' })
  role: CompanyRole;
}

export class UpdateCompanyDto implements UpdateCompanyRequest {
  @ApiProperty({ example: 'My Company' })
  @IsString({ message: 'Company name is required' })
  @Matches(/\S/, { message: 'Company name is required' })
  @MaxLength(200, { message: 'Company name must be at most 200 characters' })
  name: string;
}

export class CompanyDetailsDto implements CompanyDetails {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() createdAt: string;
  @ApiProperty({ type: PersonRefDto, nullable: true }) owner: PersonRefDto | null;
  @ApiProperty() memberCount: number;
  @ApiProperty() agentCount: number;
  @ApiProperty({ type: CompanyQuotaUsageDto }) quotas: CompanyQuotaUsageDto;
}

export class CompanyAgentDto implements CompanyAgentView {
  @ApiProperty() id: string;
  @ApiProperty() companyId: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty() avatar: string;
  @ApiProperty() isActive: boolean;
  @ApiProperty() isDefault: boolean;
  @ApiProperty({ type: PersonRefDto, nullable: true }) owner: PersonRefDto | null;
  @ApiProperty() createdAt: string;
}

/** The agent form's name rules, with the description required (the Company Admin form asks for both). */
export class CreateCompanyAgentDto
  extends PickType(CreateAgentDto, ['name'] as const)
  implements CreateCompanyAgentRequest
{
  @ApiProperty({ example: 'Answers questions about our product' })
  @Transform(trim)
  @IsString({ message: 'Description is required' })
  @Matches(/\S/, { message: 'Description is required' })
  @MaxLength(500, { message: 'Description must be at most 500 characters' })
  description: string;
}

export class UpdateCompanyAgentDto implements UpdateCompanyAgentRequest {
  @ApiProperty()
  @IsBoolean({ message: 'isActive must be true or false' })
  isActive: boolean;
}
