import { Body, Controller, Get, Ip, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../common/current-user.decorator';
import { UuidParamPipe } from '../common/uuid';
import { COMPANY_NOT_FOUND, CompaniesService } from './companies.service';
import { CompanyMembershipDto, CreateCompanyDto } from './dto/company.dto';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';

@ApiTags('companies')
@ApiBearerAuth()
@Controller('companies')
export class CompaniesController {
  constructor(private readonly companies: CompaniesService) {}

  @Get()
  @ApiOkResponse({ type: [CompanyMembershipDto] })
  list(@CurrentUser() user: AuthUser): Promise<CompanyMembershipDto[]> {
    return this.companies.listForUser(user.id, user.sessionId);
  }

  @Post()
  @RateLimit('createCompany')
  @ApiCreatedResponse({ type: CompanyMembershipDto })
  create(
    @CurrentUser() user: AuthUser,
    @Body() body: CreateCompanyDto,
    @Ip() ip: string,
  ): Promise<CompanyMembershipDto> {
    return this.companies.create(user.id, body.name, ip);
  }

  @Get(':id')
  @ApiOkResponse({ type: CompanyMembershipDto })
  get(
    @CurrentUser() user: AuthUser,
    @Param('id', new UuidParamPipe(COMPANY_NOT_FOUND)) id: string,
  ): Promise<CompanyMembershipDto> {
    return this.companies.getForUser(user.id, id);
  }
}
