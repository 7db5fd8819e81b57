import { ApiProperty } from '@nestjs/swagger';
import type { User } from '../../contracts/users';

export class UserDto implements User {
  @ApiProperty() id: string;
  @ApiProperty() email: string;
  @ApiProperty({ description: 'First and last name joined by a space' }) name: string;
  @ApiProperty() firstName: string;
  @ApiProperty() lastName: string;
  @ApiProperty() bio: string;
  @ApiProperty({ example: '/placeholder.svg' }) avatar: string;
  @ApiProperty() isSuperadmin: boolean;
  @ApiProperty({ description: 'The owner of the address has proved it' }) emailVerified: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'An email change waiting for its link' })
  pendingEmail: string | null;
}
