import { Controller, Get, Inject, Ip, Query, Req, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AccountDisabledError } from '../auth/auth.service';
import { noStore, setRefreshCookie } from '../auth/refresh-cookie';
import { Public } from '../common/public.decorator';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { SsoEmailQueryDto, SsoLookupDto } from './dto/sso.dto';
import { SsoLoginService, SsoRefusedError } from './sso-login.service';

const PENDING_COOKIE = 'sb_sso';

/**
 * Single sign-on through the company whose proved domain the address is at. Refusals land on the sign-in
 * page with `?error=sso_...`, as Google's do, which the page turns into a readable message.
 */
@ApiTags('auth')
@Public()
@Controller('auth/sso')
export class SsoLoginController {
  constructor(
    private readonly login: SsoLoginService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether single sign-on is offered for this address: nothing else (which company, whose) is said. */
  @Get('lookup')
  @RateLimit('ssoLookup')
  @ApiOkResponse({ type: SsoLookupDto })
  async lookup(@Query() query: SsoEmailQueryDto): Promise<SsoLookupDto> {
    return { sso: !!(await this.login.companyFor(query.email)) };
  }

  @Get('start')
  @RateLimit('ssoStart')
  @ApiFoundResponse({ description: "To the company's identity provider, or back to sign-in with ?error=" })
  async start(@Query() query: SsoEmailQueryDto, @Res() res: Response): Promise<void> {
    noStore(res);
    try {
      const { url, pending } = await this.login.start(query.email);
      res.cookie(PENDING_COOKIE, pending, this.cookieOptions());
      res.redirect(302, url);
    } catch (error) {
      res.redirect(302, `/?error=${reasonOf(error)}`);
    }
  }

  @Get('callback')
  @RateLimit('ssoStart')
  @ApiFoundResponse({ description: 'Signed in: to /chat; refused: to sign-in with ?error=' })
  async callback(@Req() req: Request, @Res() res: Response, @Ip() ip: string): Promise<void> {
    noStore(res);
    const pending = (req.cookies as Record<string, string | undefined> | undefined)?.[PENDING_COOKIE];
    // The pending login is used once, whatever happens next.
    res.clearCookie(PENDING_COOKIE, { ...this.cookieOptions(), maxAge: undefined });
    try {
      const current = new URL(req.originalUrl, this.config.appOrigin);
      const signedIn = await this.login.callback(current, pending, { userAgent: req.get('user-agent'), ip });
      if (signedIn.refreshToken) setRefreshCookie(res, this.config, signedIn.refreshToken);
      res.redirect(302, '/chat');
    } catch (error) {
      res.redirect(302, `/?error=${reasonOf(error)}`);
    }
  }

  private cookieOptions() {
    return {
      httpOnly: true,
      // Lax: the provider sends the browser back with a top-level GET, which carries it.
      sameSite: 'lax' as const,
      secure: this.config.appOrigin.startsWith('https://'),
      path: '/api/auth/sso',
      maxAge: 10 * 60_000,
    };
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof SsoRefusedError) return error.reason;
  if (error instanceof AccountDisabledError) return 'sso_account_disabled';
  return 'sso_provider_failed';
}
