import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { COMPANY_ROLES, type CompanyRole } from '../company-user.entity';
import type { CompanyMembership, CreateCompanyRequest } from '../../contracts/companies';

export class CompanyMembershipDto implements CompanyMembership {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: COMPANY_ROLES }) role: CompanyRole;
  @ApiProperty() createdAt: string;
  @ApiPropertyOptional({
    description:
      'Present (true) when the company requires single sign-on and this session was not made through it',
  })
  ssoRequired?: boolean;
}

export class CreateCompanyDto implements CreateCompanyRequest {
  @ApiProperty({ example: 'My Company' })
  @IsString({ message: 'Company name is required' })
  @Matches(/\S/, { message: 'Company name is required' })
  @MaxLength(200, { message: 'Company name must be at most 200 characters' })
  name: string;
}
