import { Body, Controller, Delete, Get, HttpCode, Ip, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse } from '@nestjs/swagger';
import { AGENT_NOT_FOUND } from '../agents/agents.service';
import { type CompanyScope, CurrentScope } from '../common/company-scope';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { UuidParamPipe } from '../common/uuid';
import { CompanyScoped } from '../companies/company-member.guard';
import { CompanyAdminService } from './company-admin.service';
import {
  CompanyAgentDto,
  CompanyDetailsDto,
  CreateCompanyAgentDto,
  MemberDto,
  MemberListQueryDto,
  MemberPageDto,
  UpdateCompanyAgentDto,
  UpdateCompanyDto,
  UpdateMemberRoleDto,
} from './dto/company-admin.dto';
import { MEMBER_NOT_FOUND, MembersService } from './members.service';

/** Company administration of the company named by X-Company-Id: owners and admins (others: 403/404). */
@CompanyScoped('company admin', 'The company to manage')
@Controller('company')
export class CompanyAdminController {
  constructor(
    private readonly admin: CompanyAdminService,
    private readonly members: MembersService,
  ) {}

  @Get('details')
  @ApiOkResponse({ type: CompanyDetailsDto })
  details(@CurrentScope() scope: CompanyScope): Promise<CompanyDetailsDto> {
    return this.admin.details(scope);
  }

  @Patch()
  @ApiOkResponse({ type: CompanyDetailsDto })
  rename(@CurrentScope() scope: CompanyScope, @Body() body: UpdateCompanyDto): Promise<CompanyDetailsDto> {
    return this.admin.rename(scope, body.name);
  }

  @Get('members')
  @ApiOkResponse({
    type: MemberPageDto,
    description: 'One page, oldest member first; nextCursor for the next',
  })
  listMembers(
    @CurrentScope() scope: CompanyScope,
    @Query() query: MemberListQueryDto,
  ): Promise<MemberPageDto> {
    return this.members.list(scope, query);
  }

  /** `:id` is the member's user id. */
  @Patch('members/:id')
  @ApiOkResponse({ type: MemberDto })
  changeRole(
    @CurrentScope() scope: CompanyScope,
    @Param('id', new UuidParamPipe(MEMBER_NOT_FOUND)) userId: string,
    @Body() body: UpdateMemberRoleDto,
    @Ip() ip: string,
  ): Promise<MemberDto> {
    return this.members.changeRole(scope, userId, body.role, ip);
  }

  @Delete('members/:id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async removeMember(
    @CurrentScope() scope: CompanyScope,
    @Param('id', new UuidParamPipe(MEMBER_NOT_FOUND)) userId: string,
    @Ip() ip: string,
  ): Promise<void> {
    await this.members.remove(scope, userId, ip);
  }

  @Get('agents')
  @ApiOkResponse({ type: [CompanyAgentDto] })
  listAgents(@CurrentScope() scope: CompanyScope): Promise<CompanyAgentDto[]> {
    return this.admin.listAgents(scope);
  }

  @Post('agents')
  @RateLimit('createAgent')
  @ApiCreatedResponse({ type: CompanyAgentDto })
  createAgent(
    @CurrentScope() scope: CompanyScope,
    @Body() body: CreateCompanyAgentDto,
  ): Promise<CompanyAgentDto> {
    return this.admin.createAgent(scope, body);
  }

  @Patch('agents/:id')
  @ApiOkResponse({ type: CompanyAgentDto })
  setAgentActive(
    @CurrentScope() scope: CompanyScope,
    @Param('id', new UuidParamPipe(AGENT_NOT_FOUND)) agentId: string,
    @Body() body: UpdateCompanyAgentDto,
  ): Promise<CompanyAgentDto> {
    return this.admin.setAgentActive(scope, agentId, body.isActive);
  }
}
