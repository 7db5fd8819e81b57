import { Body, Controller, Delete, Get, HttpCode, Ip, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { type AuthUser, CurrentUser } from '../common/current-user.decorator';
import { UuidParamPipe } from '../common/uuid';
import { CompanyQuotaUsageDto } from '../quotas/company-quotas.dto';
import {
  CreatePlatformCompanyDto,
  PlatformCompanyDetailsDto,
  PlatformCompanyMemberDto,
  PlatformCompanyPageDto,
  UpdateCompanyQuotasDto,
} from './companies.dto';
import { COMPANY_NOT_FOUND, PlatformCompaniesService } from './companies.service';
import { SuperadminOnly } from './superadmin.guard';
import { PlatformListQuery } from './users.dto';

const COMPANY_ID = new UuidParamPipe(COMPANY_NOT_FOUND);

/** Platform Admin → Companies: every company of the installation. */
@ApiTags('platform admin')
@ApiBearerAuth()
@SuperadminOnly()
@Controller('admin/companies')
export class PlatformCompaniesController {
  constructor(private readonly companies: PlatformCompaniesService) {}

  @Get()
  @ApiOkResponse({ type: PlatformCompanyPageDto })
  list(@Query() query: PlatformListQuery): Promise<PlatformCompanyPageDto> {
    return this.companies.list(query);
  }

  @Post()
  @ApiCreatedResponse({ type: PlatformCompanyDetailsDto })
  create(
    @CurrentUser() user: AuthUser,
    @Ip() ip: string,
    @Body() body: CreatePlatformCompanyDto,
  ): Promise<PlatformCompanyDetailsDto> {
    return this.companies.create({ user, ip }, body);
  }

  @Get(':id')
  @ApiOkResponse({ type: PlatformCompanyDetailsDto })
  details(@Param('id', COMPANY_ID) id: string): Promise<PlatformCompanyDetailsDto> {
    return this.companies.details(id);
  }

  @Get(':id/members')
  @ApiOkResponse({ type: [PlatformCompanyMemberDto] })
  members(@Param('id', COMPANY_ID) id: string): Promise<PlatformCompanyMemberDto[]> {
    return this.companies.members(id);
  }

  /** The company's quotas: a limit left out stays as it is, null removes it. Audited. */
  @Patch(':id/quotas')
  @ApiOkResponse({ type: CompanyQuotaUsageDto })
  setQuotas(
    @CurrentUser() user: AuthUser,
    @Ip() ip: string,
    @Param('id', COMPANY_ID) id: string,
    @Body() body: UpdateCompanyQuotasDto,
  ): Promise<CompanyQuotaUsageDto> {
    return this.companies.setQuotas({ user, ip }, id, body);
  }

  /** Removes the company with its memberships, agents, chats, messages and invitations. */
  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(
    @CurrentUser() user: AuthUser,
    @Ip() ip: string,
    @Param('id', COMPANY_ID) id: string,
  ): Promise<void> {
    await this.companies.remove({ user, ip }, id);
  }
}
