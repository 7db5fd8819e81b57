import { Body, Controller, HttpCode, Inject, Ip, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser, type AuthUser } from '../common/current-user.decorator';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AuthService } from './auth.service';
import { AuthResponseDto, ChangePasswordDto } from './dto/auth.dto';
import { answerSignedIn } from './refresh-cookie';

@ApiTags('profile')
@ApiBearerAuth()
@Controller('me/password')
export class PasswordController {
  constructor(
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @RateLimit('changePassword')
  @ApiOkResponse({ type: AuthResponseDto })
  async change(
    @CurrentUser() user: AuthUser,
    @Body() body: ChangePasswordDto,
    @Ip() ip: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AuthResponseDto> {
    const signedIn = await this.auth.changePassword(user.id, user.sessionId, body, ip);
    return answerSignedIn(res, this.config, signedIn);
  }
}
