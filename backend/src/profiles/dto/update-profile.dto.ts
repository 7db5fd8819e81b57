import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, MaxLength, Matches } from 'class-validator';
import { OptionalNotNull } from '../../common/validation';
import type { UpdateProfileRequest } from '../../contracts/users';

export class UpdateProfileDto implements UpdateProfileRequest {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString({ message: 'Name must be text' })
  @Matches(/\S/, { message: 'Name is required' })
  @MaxLength(300, { message: 'Name must be at most 300 characters' })
  name?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(320, { message: 'Email must be at most 320 characters' })
  email?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString({ message: 'Bio must be text' })
  @MaxLength(2000, { message: 'Bio must be at most 2000 characters' })
  bio?: string;

  @ApiPropertyOptional({ description: 'Required when the email changes' })
  @OptionalNotNull()
  @IsString({ message: 'Current password must be text' })
  @MaxLength(256, { message: 'Current password is incorrect' })
  currentPassword?: string;
}
