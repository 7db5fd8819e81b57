import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { UserDto } from '../../profiles/dto/user.dto';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from '../../profiles/password-hasher';

const REQUIRED = 'Please fill in all required fields';
const PASSWORD_TOO_LONG = `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;

export class RegisterDto {
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

export class LoginDto {
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

export class ForgotPasswordDto {
  @ApiProperty()
  @IsNotEmpty({ message: 'Please enter your email address' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(320, { message: 'Please enter a valid email address' })
  email: string;
}

export class ResetPasswordDto {
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

export class ChangePasswordDto {
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

export class AuthResponseDto {
  @ApiProperty() accessToken: string;
  @ApiProperty({ description: 'Seconds until the access token expires' }) expiresIn: number;
  @ApiProperty({ type: UserDto }) user: UserDto;
}

export class OkDto {
  @ApiProperty() ok: boolean;
}

export class ProvidersDto {
  @ApiProperty() google: boolean;
}
