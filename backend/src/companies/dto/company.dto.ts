import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { COMPANY_ROLES, type CompanyRole } from '../company-user.entity';

export class CompanyMembershipDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: COMPANY_ROLES }) role: CompanyRole;
  @ApiProperty() createdAt: string;
}

export class CreateCompanyDto {
  @ApiProperty({ example: 'My Company' })
  @IsString({ message: 'Company name is required' })
  @Matches(/\S/, { message: 'Company name is required' })
  @MaxLength(200, { message: 'Company name must be at most 200 characters' })
  name: string;
}
