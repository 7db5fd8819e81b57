import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Ip,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { isVerificationPending } from '../auth/auth.service';
import { AuthResponseDto, VerificationPendingDto } from '../auth/dto/auth.dto';
import { answerSignedIn } from '../auth/refresh-cookie';
import { SameOriginGuard } from '../auth/same-origin.guard';
import { type AuthUser, CurrentUser } from '../common/current-user.decorator';
import { Public } from '../common/public.decorator';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import {
  AcceptInvitationResultDto,
  InvitationLookupDto,
  InvitationTokenDto,
  RegisterInvitedDto,
} from './dto/invitation.dto';
import { InvitationsService } from './invitations.service';

/** The invitation page: look an invitation up by its token, accept it signed in. */
@ApiTags('invitations')
@Controller('invitations')
export class InvitationAcceptanceController {
  constructor(private readonly invitations: InvitationsService) {}

  @Get('lookup')
  @Public()
  @RateLimit('invitationLookup')
  @ApiOkResponse({ type: InvitationLookupDto })
  lookup(@Query() query: InvitationTokenDto): Promise<InvitationLookupDto> {
    return this.invitations.lookup(query.token);
  }

  @Post('accept')
  @HttpCode(200)
  @RateLimit('acceptInvitation')
  @ApiBearerAuth()
  @ApiOkResponse({ type: AcceptInvitationResultDto })
  accept(
    @CurrentUser() user: AuthUser,
    @Body() body: InvitationTokenDto,
    @Ip() ip: string,
  ): Promise<AcceptInvitationResultDto> {
    return this.invitations.accept(user.id, body.token, ip);
  }
}

/**
 * Invited sign-up (`/register?token=`): answers like login, refresh cookie included; or, through a
 * manager's copy of the link with REQUIRE_EMAIL_VERIFICATION, 202 and a mailed link to follow first.
 */
@ApiTags('auth')
@Public()
@Controller('auth')
export class InvitedRegistrationController {
  constructor(
    private readonly invitations: InvitationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('register-invited')
  @RateLimit('registerInvited')
  @UseGuards(SameOriginGuard)
  @ApiCreatedResponse({ type: AuthResponseDto })
  @ApiAcceptedResponse({
    type: VerificationPendingDto,
    description: 'Joined; check your email to confirm the address before signing in',
  })
  async registerInvited(
    @Body() body: RegisterInvitedDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AuthResponseDto | VerificationPendingDto> {
    const outcome = await this.invitations.registerInvited(body, req.get('user-agent'), req.ip);
    if (isVerificationPending(outcome)) {
      res.status(202);
      return outcome;
    }
    return answerSignedIn(res, this.config, outcome);
  }
}
