import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../common/validation';
import {
  PLATFORM_PAGE_SIZE_MAX,
  type InvitePlatformUserRequest,
  type PlatformUserPage,
  type PlatformUserView,
  type UpdatePlatformUserRequest,
} from '../contracts/platform-admin';
import { PageLimit } from '../common/paging';

export const trim = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? value.trim() : value;

/** `?search=&cursor=`: shared by the admin lists. */
export class PlatformListQuery {
  @ApiPropertyOptional({ description: 'Part of a name or email (case-insensitive)' })
  @OptionalNotNull()
  @Transform(trim)
  @IsString({ message: 'search must be text' })
  @MaxLength(200, { message: 'search must be at most 200 characters' })
  search?: string;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @OptionalNotNull()
  @IsString({ message: 'Invalid cursor' })
  @MaxLength(600, { message: 'Invalid cursor' })
  cursor?: string;

  @PageLimit(PLATFORM_PAGE_SIZE_MAX)
  limit?: number;
}

export class PlatformUserDto implements PlatformUserView {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() email: string;
  @ApiProperty() avatar: string;
  @ApiProperty() isSuperadmin: boolean;
  @ApiProperty() disabled: boolean;
  @ApiProperty({ type: String, nullable: true }) lastLogin: string | null;
  @ApiProperty() createdAt: string;
}

export class PlatformUserPageDto implements PlatformUserPage {
  @ApiProperty({ type: [PlatformUserDto] }) users: PlatformUserDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export class InvitePlatformUserDto implements InvitePlatformUserRequest {
  @ApiProperty({ example: 'Ada Lovelace' })
  @Transform(trim)
  @IsString({ message: 'Name is required' })
  @Matches(/\S/, { message: 'Name is required' })
  @MaxLength(300, { message: 'Name must be at most 300 characters' })
  name: string;

  @ApiProperty({ example: 'ada@example.com' })
  @Transform(trim)
  @IsString({ message: 'Email is required' })
  @IsNotEmpty({ message: 'Email is required' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(320, { message: 'Email must be at most 320 characters' })
  email: string;
}

export class UpdatePlatformUserDto implements UpdatePlatformUserRequest {
  @ApiPropertyOptional({ description: 'Promote to or demote from super admin' })
  @OptionalNotNull()
  @IsBoolean({ message: 'isSuperadmin must be true or false' })
  isSuperadmin?: boolean;

  @ApiPropertyOptional({ description: 'Disable (sign out everywhere, refuse sign-in) or enable' })
  @OptionalNotNull()
  @IsBoolean({ message: 'disabled must be true or false' })
  disabled?: boolean;
}
