import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsString, IsUUID } from 'class-validator';
import { AgentDto } from '../../agents/dto/agent.dto';
import { ChatDto, MessagePageDto } from '../../chats/dto/chat.dto';
import { OptionalNotNull } from '../../common/validation';
import { CompanyMembershipDto } from '../../companies/dto/company.dto';
import { AuthResponseDto } from '../../auth/dto/auth.dto';
import type {
  BootstrapQuery,
  BootstrapResponse,
  ChatBootstrap,
  SessionBootstrapResponse,
} from '../../contracts/bootstrap';
import { UserDto } from '../../profiles/dto/user.dto';

export class BootstrapQueryDto implements BootstrapQuery {
  @ApiPropertyOptional({ description: 'The company this browser last used' })
  @OptionalNotNull()
  @IsString({ message: 'companyId must be a company id' })
  @IsUUID('all', { message: 'companyId must be a company id' })
  companyId?: string;

  @ApiPropertyOptional({ description: "true: also the chat screen's opening data" })
  @OptionalNotNull()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'chat must be true or false' })
  chat?: boolean;
}

class FirstChatDto {
  @ApiProperty() chatId: string;
  @ApiProperty({ type: MessagePageDto }) page: MessagePageDto;
}

export class ChatBootstrapDto implements ChatBootstrap {
  @ApiProperty() companyId: string;
  @ApiProperty({ type: [AgentDto] }) agents: AgentDto[];
  @ApiProperty({ type: [ChatDto] }) activeChats: ChatDto[];
  @ApiProperty({ nullable: true, type: String }) activeChatsCursor: string | null;
  @ApiProperty({ type: FirstChatDto, nullable: true }) firstChat: FirstChatDto | null;
  @ApiProperty({ description: "The data's version, for the socket handshake's markers" }) version: string;
  @ApiProperty({ description: 'The largest file one upload may carry (MAX_ATTACHMENT_MB), in bytes' })
  maxAttachmentBytes: number;
}

export class BootstrapResponseDto implements BootstrapResponse {
  @ApiProperty({ type: UserDto }) user: UserDto;
  @ApiProperty({ type: [CompanyMembershipDto] }) companies: CompanyMembershipDto[];
  @ApiProperty({ type: ChatBootstrapDto, nullable: true }) chat: ChatBootstrapDto | null;
}

export class SessionBootstrapResponseDto extends AuthResponseDto implements SessionBootstrapResponse {
  @ApiProperty({ type: BootstrapResponseDto, nullable: true }) bootstrap: BootstrapResponseDto | null;
}
