import { Body, Controller, Get, HttpCode, Ip, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { type AuthUser, CurrentUser } from '../common/current-user.decorator';
import { UuidParamPipe } from '../common/uuid';
import { SuperadminOnly } from './superadmin.guard';
import {
  InvitePlatformUserDto,
  PlatformListQuery,
  PlatformUserDto,
  PlatformUserPageDto,
  UpdatePlatformUserDto,
} from './users.dto';
import { PlatformUsersService, USER_NOT_FOUND } from './users.service';

/** Platform Admin → Users: every account of the installation. */
@ApiTags('platform admin')
@ApiBearerAuth()
@SuperadminOnly()
@Controller('admin/users')
export class PlatformUsersController {
  constructor(private readonly users: PlatformUsersService) {}

  @Get()
  @ApiOkResponse({ type: PlatformUserPageDto })
  list(@Query() query: PlatformListQuery): Promise<PlatformUserPageDto> {
    return this.users.list(query);
  }

  @Post('invitations')
  @ApiCreatedResponse({ type: PlatformUserDto })
  invite(
    @CurrentUser() user: AuthUser,
    @Ip() ip: string,
    @Body() body: InvitePlatformUserDto,
  ): Promise<PlatformUserDto> {
    return this.users.invite({ user, ip }, body);
  }

  @Post(':id/password-reset')
  @HttpCode(204)
  @ApiNoContentResponse()
  async sendPasswordReset(
    @CurrentUser() user: AuthUser,
    @Ip() ip: string,
    @Param('id', new UuidParamPipe(USER_NOT_FOUND)) id: string,
  ): Promise<void> {
    await this.users.sendPasswordReset({ user, ip }, id);
  }

  @Patch(':id')
  @ApiOkResponse({ type: PlatformUserDto })
  update(
    @CurrentUser() user: AuthUser,
    @Ip() ip: string,
    @Param('id', new UuidParamPipe(USER_NOT_FOUND)) id: string,
    @Body() body: UpdatePlatformUserDto,
  ): Promise<PlatformUserDto> {
    return this.users.update({ user, ip }, id, body);
  }
}
