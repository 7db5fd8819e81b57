import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { MAX_MESSAGE_QUOTA, type UpdateCompanyQuotasRequest } from '../contracts/company-quotas';
import { CompanyQuotaUsageDto } from '../quotas/company-quotas.dto';
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

/** The largest limit: a petabyte (the column is bigint; JSON numbers are exact to 2^53). */
export const MAX_STORED_BYTES_LIMIT = 1024 ** 5;

export class UpdateCompanyQuotasDto implements UpdateCompanyQuotasRequest {
  @ApiProperty({
    type: Number,
    nullable: true,
    required: false,
    description: 'Bytes its attached files may take in all; null removes the limit; left out: unchanged',
  })
  @ValidateIf((_o, value) => value !== null && value !== undefined)
  @IsInt({ message: 'The storage limit must be a whole number of bytes' })
  @Min(1, { message: 'The storage limit must be at least 1 byte (leave it empty for no limit)' })
  @Max(MAX_STORED_BYTES_LIMIT, { message: 'The storage limit can be at most 1 PB' })
  storedBytesLimit?: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    required: false,
    description: 'Messages each member may send per UTC day; null removes the limit; left out: unchanged',
  })
  @ValidateIf((_o, value) => value !== null && value !== undefined)
  @IsInt({ message: 'The daily message limit per user must be a whole number' })
  @Min(1, { message: 'The daily message limit per user must be at least 1 (leave it empty for no limit)' })
  @Max(MAX_MESSAGE_QUOTA, { message: `The daily message limit per user can be at most ${MAX_MESSAGE_QUOTA}` })
  messagesPerUserPerDay?: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    required: false,
    description:
      'Messages its members may send in all per calendar month (UTC); null removes the limit; left out: unchanged',
  })
  @ValidateIf((_o, value) => value !== null && value !== undefined)
  @IsInt({ message: 'The monthly message limit of the company must be a whole number' })
  @Min(1, {
    message: 'The monthly message limit of the company must be at least 1 (leave it empty for no limit)',
  })
  @Max(MAX_MESSAGE_QUOTA, {
    message: `The monthly message limit of the company can be at most ${MAX_MESSAGE_QUOTA}`,
  })
  messagesPerCompanyPerMonth?: number | null;
}

export class PlatformCompanyDetailsDto extends PlatformCompanyDto implements PlatformCompanyDetails {
  @ApiProperty({ type: PlatformPersonDto, nullable: true }) owner: PlatformPersonDto | null;
  @ApiProperty() memberCount: number;
  @ApiProperty() agentCount: number;
  @ApiProperty() chatCount: number;
  @ApiProperty({ type: CompanyQuotaUsageDto }) quotas: CompanyQuotaUsageDto;
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
