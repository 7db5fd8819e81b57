import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../common/current-user.decorator';
import { BootstrapService } from './bootstrap.service';
import { BootstrapQueryDto, BootstrapResponseDto } from './dto/bootstrap.dto';

@ApiTags('profile')
@ApiBearerAuth()
@Controller('bootstrap')
export class BootstrapController {
  constructor(private readonly bootstrap: BootstrapService) {}

  /** Signed in (any user): only their own profile, companies and chats are read. */
  @Get()
  @ApiOkResponse({ type: BootstrapResponseDto })
  get(@CurrentUser() user: AuthUser, @Query() query: BootstrapQueryDto): Promise<BootstrapResponseDto> {
    return this.bootstrap.load(user.id, query);
  }
}
