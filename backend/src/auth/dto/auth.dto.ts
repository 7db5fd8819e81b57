import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { UserDto } from '../../profiles/dto/user.dto';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from '../../profiles/password-hasher';
import type {
  AuthResponse,
  LoginRequest,
  OkResponse,
  ProvidersResponse,
  RegisterRequest,
  ResetPasswordRequest,
  EmailRequest,
  TokenRequest,
  VerificationRequiredResponse,
  ConfirmEmailResponse,
} from '../../contracts/auth';
import type { ChangePasswordRequest } from '../../contracts/users';

const REQUIRED = 'Please fill in all required fields';
const PASSWORD_TOO_LONG = `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;

export class RegisterDto implements RegisterRequest {
  @ApiProperty({ example: 'ada@example.com' })
  @IsNotEmpty({ message: REQUIRED })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(320, { message: 'Email must be at most 320 characters' })
  email: string;

  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH })
  @IsString({ message: REQUIRED })
  @IsNotEmpty({ message: REQUIRED })
  @MinLength(MIN_PASSWORD_LENGTH, { message: PASSWORD_TOO_SHORT })
  @MaxLength(MAX_PASSWORD_LENGTH, { message: PASSWORD_TOO_LONG })
  password: string;

  @ApiProperty({ example: 'Ada Lovelace' })
  @IsString({ message: REQUIRED })
  @Matches(/\S/, { message: REQUIRED })
  @MaxLength(300, { message: 'Full name must be at most 300 characters' })
  fullName: string;

  @ApiProperty({ example: 'Analytical Engines Ltd' })
  @IsString({ message: REQUIRED })
  @Matches(/\S/, { message: REQUIRED })
  @MaxLength(200, { message: 'Company name must be at most 200 characters' })
  companyName: string;
}

export class LoginDto implements LoginRequest {
  @ApiProperty()
  @IsString({ message: 'Email and password are required' })
  @IsNotEmpty({ message: 'Email and password are required' })
  @MaxLength(320, { message: 'Invalid email or password' })
  email: string;

  @ApiProperty()
  @IsString({ message: 'Email and password are required' })
  @IsNotEmpty({ message: 'Email and password are required' })
  @MaxLength(MAX_PASSWORD_LENGTH, { message: 'Invalid email or password' })
  password: string;
}

export class ForgotPasswordDto implements EmailRequest {
  @ApiProperty()
  @IsNotEmpty({ message: 'Please enter your email address' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(320, { message: 'Please enter a valid email address' })
  email: string;
}

export class ResetPasswordDto implements ResetPasswordRequest {
  @ApiProperty()
  @IsString({ message: 'This password reset link is invalid or has expired.' })
  @IsNotEmpty({ message: 'This password reset link is invalid or has expired.' })
  @MaxLength(200, { message: 'This password reset link is invalid or has expired.' })
  token: string;

  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH })
  @IsString({ message: 'Please enter a new password' })
  @MinLength(MIN_PASSWORD_LENGTH, { message: PASSWORD_TOO_SHORT })
  @MaxLength(MAX_PASSWORD_LENGTH, { message: PASSWORD_TOO_LONG })
  password: string;
}

export class ChangePasswordDto implements ChangePasswordRequest {
  @ApiProperty()
  @IsString({ message: 'Please fill in all required fields' })
  @IsNotEmpty({ message: 'Please fill in all required fields' })
  @MaxLength(MAX_PASSWORD_LENGTH, { message: 'Current password is incorrect' })
  currentPassword: string;

  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH })
  @IsString({ message: 'Please fill in all required fields' })
  @MinLength(MIN_PASSWORD_LENGTH, { message: PASSWORD_TOO_SHORT })
  @MaxLength(MAX_PASSWORD_LENGTH, { message: PASSWORD_TOO_LONG })
  newPassword: string;
}

export class AuthResponseDto implements AuthResponse {
  @ApiProperty() accessToken: string;
  @ApiProperty({ description: 'Seconds until the access token expires' }) expiresIn: number;
  @ApiProperty({ type: UserDto }) user: UserDto;
}

export class OkDto implements OkResponse {
  @ApiProperty() ok: boolean;
}

export class ProvidersDto implements ProvidersResponse {
  @ApiProperty() google: boolean;
}

export class EmailTokenDto implements TokenRequest {
  @ApiProperty({ description: 'The token from the emailed link' })
  @IsString({ message: 'This link is invalid or has expired.' })
  @IsNotEmpty({ message: 'This link is invalid or has expired.' })
  @MaxLength(200, { message: 'This link is invalid or has expired.' })
  token: string;
}

export class ResendVerificationDto implements EmailRequest {
  @ApiProperty()
  @IsNotEmpty({ message: 'Please enter your email address' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(320, { message: 'Please enter a valid email address' })
  email: string;
}

export class VerificationPendingDto implements VerificationRequiredResponse {
  @ApiProperty({ enum: [true] }) verificationRequired: true;
  @ApiProperty() email: string;
}

export class EmailChangedDto implements ConfirmEmailResponse {
  @ApiProperty() ok: boolean;
  @ApiProperty() email: string;
}
