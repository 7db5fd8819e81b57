import { Body, Controller, Delete, Get, HttpCode, Ip, Param, Post, Put } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { type AuthUser, CurrentUser } from '../common/current-user.decorator';
import { NotFoundError } from '../common/domain-errors';
import { SuperadminOnly } from '../platform-admin/superadmin.guard';
import { type CompanyScope, CurrentScope } from '../common/company-scope';
import { Public } from '../common/public.decorator';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { UuidParamPipe } from '../common/uuid';
import { CompanyScoped } from '../companies/company-member.guard';
import {
  AddSsoDomainDto,
  SsoDomainDto,
  SsoSettingsDto,
  UpdateSsoSettingsDto,
  VerifySsoDomainDto,
  VerifySsoDomainResponseDto,
} from './dto/sso.dto';
import { SSO_DOMAIN_NOT_FOUND, SSO_NOT_ON, SsoSettingsService } from './sso-settings.service';

/** Company Admin → Settings → Single sign-on, for the company named by X-Company-Id: owners only. */
@CompanyScoped('single sign-on', 'The company whose single sign-on to manage')
@Controller('company/sso')
export class SsoSettingsController {
  constructor(private readonly sso: SsoSettingsService) {}

  @Get()
  @ApiOkResponse({ type: SsoSettingsDto })
  settings(@CurrentScope() scope: CompanyScope): Promise<SsoSettingsDto> {
    return this.sso.settings(scope);
  }

  @Put()
  @ApiOkResponse({ type: SsoSettingsDto })
  update(
    @CurrentScope() scope: CompanyScope,
    @Body() body: UpdateSsoSettingsDto,
    @Ip() ip: string,
  ): Promise<SsoSettingsDto> {
    return this.sso.update(scope, body, ip);
  }

  @Post('domains')
  @RateLimit('ssoDomainProof')
  @ApiCreatedResponse({ type: SsoDomainDto, description: 'Claimed; the proof link is mailed' })
  claimDomain(
    @CurrentScope() scope: CompanyScope,
    @Body() body: AddSsoDomainDto,
    @Ip() ip: string,
  ): Promise<SsoDomainDto> {
    return this.sso.claimDomain(scope, body, ip);
  }

  @Delete('domains/:id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async removeDomain(
    @CurrentScope() scope: CompanyScope,
    @Param('id', new UuidParamPipe(SSO_DOMAIN_NOT_FOUND)) domainId: string,
    @Ip() ip: string,
  ): Promise<void> {
    await this.sso.removeDomain(scope, domainId, ip);
  }
}

/** The mailed domain proof link's page posts its token here: the link is the credential. */
@ApiTags('single sign-on')
@Public()
@Controller('sso/domains')
export class SsoDomainVerificationController {
  constructor(private readonly sso: SsoSettingsService) {}

  @Post('verify')
  @HttpCode(200)
  @RateLimit('ssoDomainVerify')
  @ApiOkResponse({ type: VerifySsoDomainResponseDto })
  verify(@Body() body: VerifySsoDomainDto, @Ip() ip: string): Promise<VerifySsoDomainResponseDto> {
    return this.sso.verifyDomain(body.token, ip);
  }
}

/** Platform Admin → Companies: a platform administrator turns a company's single sign-on off. */
@ApiTags('platform admin')
@ApiBearerAuth()
@SuperadminOnly()
@Controller('admin/companies')
export class PlatformSsoController {
  constructor(private readonly sso: SsoSettingsService) {}

  /** 204 when it was on and is now off; 404 when the company has no single sign-on on. */
  @Post(':id/sso/disable')
  @HttpCode(204)
  @ApiNoContentResponse()
  async disable(
    @CurrentUser() user: AuthUser,
    @Param('id', new UuidParamPipe(SSO_NOT_ON)) companyId: string,
    @Ip() ip: string,
  ): Promise<void> {
    if (!(await this.sso.disableByPlatform(user.id, companyId, ip))) throw new NotFoundError(SSO_NOT_ON);
  }
}
