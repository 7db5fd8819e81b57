import { AccessTokenService } from '../auth/access-token.service';
import { Controller, Get, HttpCode, Inject, Logger, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AuthService } from '../auth/auth.service';
import { refreshFromCookie } from '../auth/refresh-cookie';
import { SameOriginGuard } from '../auth/same-origin.guard';
import { CurrentUser, type AuthUser } from '../common/current-user.decorator';
import { Public } from '../common/public.decorator';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { BootstrapService } from './bootstrap.service';
import { BootstrapQueryDto, BootstrapResponseDto, SessionBootstrapResponseDto } from './dto/bootstrap.dto';

@ApiTags('profile')
@Controller('bootstrap')
export class BootstrapController {
  constructor(private readonly bootstrap: BootstrapService) {}

  /** Signed in (any user): only their own profile, companies and chats are read. */
  @Get()
  @ApiBearerAuth()
  @ApiOkResponse({ type: BootstrapResponseDto })
  get(@CurrentUser() user: AuthUser, @Query() query: BootstrapQueryDto): Promise<BootstrapResponseDto> {
    return this.bootstrap.load(user.id, query, user.sessionId);
  }
}

/**
 * POST /api/auth/session, under /api/auth because the refresh cookie is scoped to that path: a page
 * loading signed in (/session-preload.js) restores its session and gets its first screen's data in one
 * round trip.
 */
@ApiTags('auth')
@Public()
@Controller('auth')
export class SessionBootstrapController {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    private readonly bootstrap: BootstrapService,
    private readonly auth: AuthService,
    private readonly tokens: AccessTokenService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A page loading signed in: the refresh (exactly as POST /api/auth/refresh: same cookie, rate limit,
   * origin check and rotation) and, for the user it restores, GET /api/bootstrap's answer, in one round
   * trip instead of two that the page's script had to chain while its code was still starting.
   */
  @Post('session')
  @HttpCode(200)
  @RateLimit('refresh')
  @UseGuards(SameOriginGuard)
  @ApiOkResponse({ type: SessionBootstrapResponseDto })
  async session(
    @Query() query: BootstrapQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionBootstrapResponseDto> {
    const signedIn = await refreshFromCookie(req, res, this.config, (token) => this.auth.refresh(token));
    // The session is restored whatever follows: a failed read here leaves the bootstrap to the client.
    const sessionId = this.tokens.verify(signedIn.accessToken)?.sid;
    const bootstrap = await this.bootstrap
      .load(signedIn.user.id, query, sessionId)
      .catch((error: unknown) => {
        this.logger.warn(
          `session bootstrap read failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        return null;
      });
    return {
      accessToken: signedIn.accessToken,
      expiresIn: signedIn.expiresIn,
      user: signedIn.user,
      bootstrap,
    };
  }
}
