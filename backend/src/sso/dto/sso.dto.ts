import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation';
import type {
  AddSsoDomainRequest,
  SsoDomainView,
  SsoSettingsView,
  UpdateSsoSettingsRequest,
  VerifySsoDomainRequest,
  VerifySsoDomainResponse,
} from '../../contracts/sso';

export class SsoDomainDto implements SsoDomainView {
  @ApiProperty() id: string;
  @ApiProperty() domain: string;
  @ApiProperty({ nullable: true, type: String }) verifiedAt: string | null;
  @ApiProperty({ nullable: true, type: String }) proofSentTo: string | null;
}

/** The client secret is never part of it: only whether one is set. */
export class SsoSettingsDto implements SsoSettingsView {
  @ApiProperty() enabled: boolean;
  @ApiProperty({ nullable: true, type: String }) issuer: string | null;
  @ApiProperty({ nullable: true, type: String }) clientId: string | null;
  @ApiProperty() hasClientSecret: boolean;
  @ApiProperty() requireSso: boolean;
  @ApiProperty() autoJoin: boolean;
  @ApiProperty({ type: [SsoDomainDto] }) domains: SsoDomainDto[];
  @ApiProperty({ description: 'Register it at the identity provider' }) redirectUri: string;
}

export class UpdateSsoSettingsDto implements UpdateSsoSettingsRequest {
  @ApiProperty() @IsBoolean({ message: 'enabled must be true or false' }) enabled: boolean;

  @ApiProperty({ example: 'https://login.example.com/realms/acme' })
  @IsString({ message: 'Please enter the issuer URL of your identity provider (https://...)' })
  @IsNotEmpty({ message: 'Please enter the issuer URL of your identity provider (https://...)' })
  @MaxLength(2000, { message: 'The issuer URL must be at most 2000 characters' })
  issuer: string;

  @ApiProperty()
  @IsString({ message: 'Please enter the client ID' })
  @IsNotEmpty({ message: 'Please enter the client ID' })
  @MaxLength(500, { message: 'The client ID must be at most 500 characters' })
  clientId: string;

  @ApiPropertyOptional({ description: 'Write only: absent or empty keeps the saved one' })
  @OptionalNotNull()
  @IsString({ message: 'The client secret must be text' })
  @MaxLength(1000, { message: 'The client secret must be at most 1000 characters' })
  clientSecret?: string;

  @ApiProperty() @IsBoolean({ message: 'requireSso must be true or false' }) requireSso: boolean;
  @ApiProperty() @IsBoolean({ message: 'autoJoin must be true or false' }) autoJoin: boolean;
}

export class AddSsoDomainDto implements AddSsoDomainRequest {
  @ApiProperty({ example: 'example.com' })
  @IsString({ message: 'Please enter an email domain such as example.com (no wildcards, no @)' })
  @IsNotEmpty({ message: 'Please enter an email domain such as example.com (no wildcards, no @)' })
  @MaxLength(253, { message: 'Please enter an email domain such as example.com (no wildcards, no @)' })
  domain: string;

  @ApiPropertyOptional({ description: 'An address at the domain; postmaster@<domain> when absent' })
  @OptionalNotNull()
  @IsString({ message: 'Please enter a valid email address' })
  @MaxLength(320, { message: 'Please enter a valid email address' })
  email?: string;
}

export class VerifySsoDomainDto implements VerifySsoDomainRequest {
  @ApiProperty({ description: 'The token from the emailed link' })
  @IsString({ message: 'This link is invalid or has expired.' })
  @IsNotEmpty({ message: 'This link is invalid or has expired.' })
  @MaxLength(200, { message: 'This link is invalid or has expired.' })
  token: string;
}

export class VerifySsoDomainResponseDto implements VerifySsoDomainResponse {
  @ApiProperty() domain: string;
  @ApiProperty() companyName: string;
}

export class SsoEmailQueryDto {
  @ApiProperty({ example: 'someone@acme.com' })
  @IsNotEmpty({ message: 'Please enter your email address' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(320, { message: 'Please enter a valid email address' })
  email: string;
}

export class SsoLookupDto {
  @ApiProperty({ description: 'Single sign-on is offered for this address' }) sso: boolean;
}
