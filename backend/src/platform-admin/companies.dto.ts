import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import type {
  CreatePlatformCompanyRequest,
  PlatformCompanyDetails,
  PlatformCompanyMemberView,
  PlatformCompanyPage,
  PlatformCompanyView,
} from '../contracts/platform-admin';
import { MemberDto } from '../company-admin/dto/company-admin.dto';
import { trim } from './users.dto';

export class PlatformPersonDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() email: string;
}

export class PlatformCompanyDto implements PlatformCompanyView {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() userCount: number;
  @ApiProperty({ description: 'Single sign-on is on' }) usesSso: boolean;
  @ApiProperty() createdAt: string;
}

export class PlatformCompanyPageDto implements PlatformCompanyPage {
  @ApiProperty({ type: [PlatformCompanyDto] }) companies: PlatformCompanyDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class PlatformCompanyDetailsDto extends PlatformCompanyDto implements PlatformCompanyDetails {
  @ApiProperty({ type: PlatformPersonDto, nullable: true }) owner: PlatformPersonDto | null;
  @ApiProperty() memberCount: number;
  @ApiProperty() agentCount: number;
  @ApiProperty() chatCount: number;
}

/** The same fields as Company Admin's member (one contract: PlatformCompanyMemberView = MemberView). */
export class PlatformCompanyMemberDto extends MemberDto implements PlatformCompanyMemberView {}

export class CreatePlatformCompanyDto implements CreatePlatformCompanyRequest {
  @ApiProperty({ example: 'Acme' })
  @Transform(trim)
  @IsString({ message: 'Company name is required' })
  @Matches(/\S/, { message: 'Company name is required' })
  @MaxLength(200, { message: 'Company name must be at most 200 characters' })
  name: string;

  @ApiProperty({ example: 'owner@example.com' })
  @Transform(trim)
  @IsString({ message: 'Owner email is required' })
  @IsNotEmpty({ message: 'Owner email is required' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(320, { message: 'Email must be at most 320 characters' })
  ownerEmail: string;
}
