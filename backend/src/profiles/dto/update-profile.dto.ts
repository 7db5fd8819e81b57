import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, MaxLength, Matches } from 'class-validator';

export class UpdateProfileDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'Name must be text' })
  @Matches(/\S/, { message: 'Name is required' })
  @MaxLength(300, { message: 'Name must be at most 300 characters' })
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(320, { message: 'Email must be at most 320 characters' })
  email?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'Bio must be text' })
  @MaxLength(2000, { message: 'Bio must be at most 2000 characters' })
  bio?: string;

  @ApiPropertyOptional({ description: 'Required when the email changes' })
  @IsOptional()
  @IsString({ message: 'Current password must be text' })
  @MaxLength(256, { message: 'Current password is incorrect' })
  currentPassword?: string;
}
