import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { Public } from '../common/public.decorator';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AuthThrottlerGuard } from './auth-throttler.guard';
import { AuthService, type GoogleIdentity, type SignedIn } from './auth.service';
import {
  AuthResponseDto,
  ForgotPasswordDto,
  LoginDto,
  OkDto,
  ProvidersDto,
  RegisterDto,
  ResetPasswordDto,
} from './dto/auth.dto';
import { GoogleAuthGuard } from './google/google-auth.guard';
import { GoogleGate } from './google/google-gate.guard';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie';

const PER_MINUTE = 60_000;

@ApiTags('auth')
@Public()
@UseGuards(AuthThrottlerGuard)
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('register')
  @Throttle({ auth: { limit: 10, ttl: PER_MINUTE } })
  @ApiCreatedResponse({ type: AuthResponseDto })
  async register(@Body() body: RegisterDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.answer(res, await this.auth.register(body, req.get('user-agent')));
  }

  @Post('login')
  @HttpCode(200)
  @Throttle({ auth: { limit: 10, ttl: PER_MINUTE } })
  @ApiOkResponse({ type: AuthResponseDto })
  async login(@Body() body: LoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.answer(res, await this.auth.login(body.email, body.password, req.get('user-agent')));
  }

  @Post('refresh')
  @HttpCode(200)
  @Throttle({ auth: { limit: 120, ttl: PER_MINUTE } })
  @ApiOkResponse({ type: AuthResponseDto })
  async refresh(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    try {
      return this.answer(res, await this.auth.refresh(readRefreshCookie(req)));
    } catch (error) {
      clearRefreshCookie(res, this.config);
      throw error;
    }
  }

  @Post('logout')
  @HttpCode(204)
  @Throttle({ auth: { limit: 60, ttl: PER_MINUTE } })
  @ApiNoContentResponse()
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.auth.logout(readRefreshCookie(req));
    clearRefreshCookie(res, this.config);
  }

  @Post('forgot-password')
  @HttpCode(202)
  @Throttle({ auth: { limit: 5, ttl: PER_MINUTE } })
  @ApiAcceptedResponse({ type: OkDto })
  async forgotPassword(@Body() body: ForgotPasswordDto): Promise<OkDto> {
    await this.auth.forgotPassword(body.email);
    return { ok: true };
  }

  @Post('reset-password')
  @HttpCode(200)
  @Throttle({ auth: { limit: 10, ttl: PER_MINUTE } })
  @ApiOkResponse({ type: OkDto })
  async resetPassword(@Body() body: ResetPasswordDto): Promise<OkDto> {
    await this.auth.resetPassword(body.token, body.password);
    return { ok: true };
  }

  @Get('providers')
  @Throttle({ auth: { limit: 600, ttl: PER_MINUTE } })
  @ApiOkResponse({ type: ProvidersDto })
  providers(): ProvidersDto {
    return { google: !!this.config.google };
  }

  @Get('google')
  @Throttle({ auth: { limit: 30, ttl: PER_MINUTE } })
  @UseGuards(GoogleGate, GoogleAuthGuard)
  google(): void {
    // The guard redirects to Google.
  }

  @Get('google/callback')
  @Throttle({ auth: { limit: 30, ttl: PER_MINUTE } })
  @UseGuards(GoogleGate, GoogleAuthGuard)
  async googleCallback(
    @Req() req: Request & { user?: GoogleIdentity | null },
    @Res() res: Response,
  ): Promise<void> {
    try {
      if (!req.user) throw new Error('Google sign-in was not completed');
      const signedIn = await this.auth.googleLogin(req.user, req.get('user-agent'));
      if (signedIn.refreshToken) setRefreshCookie(res, this.config, signedIn.refreshToken);
      res.redirect(302, '/chat');
    } catch {
      res.redirect(302, '/?error=google_login_failed');
    }
  }

  private answer(res: Response, signedIn: SignedIn): AuthResponseDto {
    if (signedIn.refreshToken) setRefreshCookie(res, this.config, signedIn.refreshToken);
    return { accessToken: signedIn.accessToken, expiresIn: signedIn.expiresIn, user: signedIn.user };
  }
}
