import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PersonRefDto } from '../../company-admin/dto/company-admin.dto';
import { COMPANY_ROLES } from '../../companies/company-user.entity';
import type { CompanyRole } from '../../contracts/companies';
import type {
  AcceptInvitationRequest,
  AcceptInvitationResponse,
  CreateInvitationRequest,
  InvitationLinkResponse,
  InvitationLookup,
  InvitationRole,
  InvitationStatus,
  InvitationView,
  InvitationWithLink,
  RegisterInvitedRequest,
} from '../../contracts/invitations';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from '../../profiles/password-hasher';
import { INVITATION_ROLES } from '../invitation.entity';
import { INVALID_INVITATION } from '../invitations.service';

const STATUSES: InvitationStatus[] = ['pending', 'accepted', 'rejected', 'expired'];
const REQUIRED = 'Please fill in all required fields';
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class InvitationDto implements InvitationView {
  @ApiProperty() id: string;
  @ApiProperty() companyId: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: INVITATION_ROLES }) role: InvitationRole;
  @ApiProperty({ enum: STATUSES }) status: InvitationStatus;
  @ApiProperty({ type: PersonRefDto, nullable: true }) invitedBy: PersonRefDto | null;
  @ApiProperty({ description: 'End of the 30th day (23:59:59.999, server time)' }) expiresAt: string;
  @ApiProperty() createdAt: string;
}

export class InvitationWithLinkDto implements InvitationWithLink {
  @ApiProperty({ type: InvitationDto }) invitation: InvitationDto;
  @ApiProperty() link: string;
}

export class InvitationLinkDto implements InvitationLinkResponse {
  @ApiProperty() link: string;
}

export class CreateInvitationDto implements CreateInvitationRequest {
  @ApiProperty({ example: 'new.colleague@example.com' })
  @Transform(trim)
  @IsNotEmpty({ message: 'Email is required' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(320, { message: 'Email must be at most 320 characters' })
  email: string;

  @ApiProperty({ enum: INVITATION_ROLES, example: 'user' })
  @IsIn(INVITATION_ROLES, { message: 'Role must be admin or user' })
  role: InvitationRole;
}

/** The emailed token; anything that cannot be one is the same "invalid" as a wrong one. */
export class InvitationTokenDto implements AcceptInvitationRequest {
  @ApiProperty()
  @IsString({ message: INVALID_INVITATION })
  @IsNotEmpty({ message: INVALID_INVITATION })
  @MaxLength(200, { message: INVALID_INVITATION })
  token: string;
}

export class InvitationLookupDto implements InvitationLookup {
  @ApiProperty() companyId: string;
  @ApiProperty() companyName: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: INVITATION_ROLES }) role: InvitationRole;
  @ApiProperty({ nullable: true, type: String }) inviterName: string | null;
  @ApiProperty() expiresAt: string;
  @ApiProperty() accountExists: boolean;
}

export class AcceptInvitationResultDto implements AcceptInvitationResponse {
  @ApiProperty() companyId: string;
  @ApiProperty() companyName: string;
  @ApiProperty({ enum: COMPANY_ROLES }) role: CompanyRole;
}

export class RegisterInvitedDto extends InvitationTokenDto implements RegisterInvitedRequest {
  @ApiProperty({ example: 'Ada' })
  @IsString({ message: REQUIRED })
  @Matches(/\S/, { message: REQUIRED })
  @MaxLength(100, { message: 'First name must be at most 100 characters' })
  firstName: string;

  @ApiProperty({ example: 'Lovelace' })
  @IsString({ message: REQUIRED })
  @Matches(/\S/, { message: REQUIRED })
  @MaxLength(200, { message: 'Last name must be at most 200 characters' })
  lastName: string;

  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH })
  @IsString({ message: 'Please enter a password' })
  @IsNotEmpty({ message: 'Please enter a password' })
  @MinLength(MIN_PASSWORD_LENGTH, { message: PASSWORD_TOO_SHORT })
  @MaxLength(MAX_PASSWORD_LENGTH, { message: `Password must be at most ${MAX_PASSWORD_LENGTH} characters` })
  password: string;
}
