import { Body, Controller, Get, HttpCode, Inject, Ip, Post, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../common/public.decorator';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import {
  AuthService,
  GoogleAccountUnverifiedError,
  type GoogleIdentity,
  isVerificationPending,
  type SignedIn,
} from './auth.service';
import { SameOriginGuard } from './same-origin.guard';
import {
  AuthResponseDto,
  EmailChangedDto,
  EmailTokenDto,
  ForgotPasswordDto,
  LoginDto,
  OkDto,
  ProvidersDto,
  RegisterDto,
  ResendVerificationDto,
  ResetPasswordDto,
  VerificationPendingDto,
} from './dto/auth.dto';
import { GoogleAuthGuard } from './google/google-auth.guard';
import { GoogleGate } from './google/google-gate.guard';
import {
  answerSignedIn,
  clearRefreshCookie,
  readRefreshCookie,
  refreshFromCookie,
  setRefreshCookie,
} from './refresh-cookie';

@ApiTags('auth')
@Public()
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('register')
  @RateLimit('register')
  @UseGuards(SameOriginGuard)
  @ApiCreatedResponse({ type: AuthResponseDto, description: 'Signed in (email verification not required)' })
  @ApiAcceptedResponse({
    type: VerificationPendingDto,
    description: 'Check your email to confirm the account',
  })
  async register(
    @Body() body: RegisterDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AuthResponseDto | VerificationPendingDto> {
    const outcome = await this.auth.register(body, req.get('user-agent'), req.ip);
    if (isVerificationPending(outcome)) {
      res.status(202);
      return outcome;
    }
    return this.answer(res, outcome);
  }

  @Post('login')
  @HttpCode(200)
  @RateLimit('login')
  @UseGuards(SameOriginGuard)
  @ApiOkResponse({ type: AuthResponseDto })
  async login(@Body() body: LoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.answer(res, await this.auth.login(body.email, body.password, req.get('user-agent'), req.ip));
  }

  @Post('refresh')
  @HttpCode(200)
  @RateLimit('refresh')
  @UseGuards(SameOriginGuard)
  @ApiOkResponse({ type: AuthResponseDto })
  async refresh(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const { accessToken, expiresIn, user } = await refreshFromCookie(req, res, this.config, (token) =>
      this.auth.refresh(token),
    );
    return { accessToken, expiresIn, user };
  }

  @Post('logout')
  @HttpCode(204)
  @RateLimit('logout')
  @UseGuards(SameOriginGuard)
  @ApiNoContentResponse()
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.auth.logout(readRefreshCookie(req));
    clearRefreshCookie(res, this.config);
  }

  @Post('forgot-password')
  @HttpCode(202)
  @RateLimit('forgotPassword')
  @ApiAcceptedResponse({ type: OkDto })
  async forgotPassword(@Body() body: ForgotPasswordDto): Promise<OkDto> {
    await this.auth.forgotPassword(body.email);
    return { ok: true };
  }

  @Post('reset-password')
  @HttpCode(200)
  @RateLimit('resetPassword')
  @ApiOkResponse({ type: OkDto })
  async resetPassword(@Body() body: ResetPasswordDto, @Ip() ip: string): Promise<OkDto> {
    await this.auth.resetPassword(body.token, body.password, ip);
    return { ok: true };
  }

  @Post('resend-verification')
  @HttpCode(202)
  @RateLimit('resendVerification')
  @ApiAcceptedResponse({ type: OkDto })
  async resendVerification(@Body() body: ResendVerificationDto): Promise<OkDto> {
    await this.auth.resendVerification(body.email);
    return { ok: true };
  }

  @Post('verify-email')
  @HttpCode(200)
  @RateLimit('confirmEmailToken')
  @ApiOkResponse({ type: OkDto })
  async verifyEmail(@Body() body: EmailTokenDto): Promise<OkDto> {
    await this.auth.verifyEmail(body.token);
    return { ok: true };
  }

  @Post('confirm-email')
  @HttpCode(200)
  @RateLimit('confirmEmailToken')
  @ApiOkResponse({ type: EmailChangedDto })
  async confirmEmail(@Body() body: EmailTokenDto, @Ip() ip: string): Promise<EmailChangedDto> {
    const { email } = await this.auth.confirmEmailChange(body.token, ip);
    return { ok: true, email };
  }

  @Get('providers')
  @RateLimit('providers')
  @ApiOkResponse({ type: ProvidersDto })
  providers(): ProvidersDto {
    return { google: !!this.config.google };
  }

  @Get('google')
  @RateLimit('google')
  @UseGuards(GoogleGate, GoogleAuthGuard)
  google(): void {
    // The guard redirects to Google.
  }

  @Get('google/callback')
  @RateLimit('google')
  @UseGuards(GoogleGate, GoogleAuthGuard)
  async googleCallback(
    @Req() req: Request & { user?: GoogleIdentity | null },
    @Res() res: Response,
  ): Promise<void> {
    try {
      if (!req.user) throw new Error('Google sign-in was not completed');
      const signedIn = await this.auth.googleLogin(req.user, req.get('user-agent'), req.ip);
      if (signedIn.refreshToken) setRefreshCookie(res, this.config, signedIn.refreshToken);
      res.redirect(302, '/chat');
    } catch (error) {
      const reason =
        error instanceof GoogleAccountUnverifiedError ? 'google_account_unverified' : 'google_login_failed';
      res.redirect(302, `/?error=${reason}`);
    }
  }

  private answer(res: Response, signedIn: SignedIn): AuthResponseDto {
    return answerSignedIn(res, this.config, signedIn);
  }
}
