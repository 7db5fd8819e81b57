import { Body, Controller, Delete, Get, HttpCode, Ip, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse } from '@nestjs/swagger';
import { type CompanyScope, CurrentScope } from '../common/company-scope';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { UuidParamPipe } from '../common/uuid';
import { CompanyScoped } from '../companies/company-member.guard';
import {
  CreateInvitationDto,
  InvitationDto,
  InvitationLinkDto,
  InvitationWithLinkDto,
} from './dto/invitation.dto';
import { INVITATION_NOT_FOUND, InvitationsService } from './invitations.service';

const INVITATION_ID = new UuidParamPipe(INVITATION_NOT_FOUND);

/** Company Invitations of the company named by X-Company-Id: owners and admins (others: 403/404). */
@CompanyScoped('company admin', 'The company to manage')
@Controller('company/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Get()
  @ApiOkResponse({ type: [InvitationDto] })
  list(@CurrentScope() scope: CompanyScope): Promise<InvitationDto[]> {
    return this.invitations.list(scope);
  }

  @Post()
  @RateLimit('invite')
  @ApiCreatedResponse({ type: InvitationWithLinkDto })
  create(
    @CurrentScope() scope: CompanyScope,
    @Body() body: CreateInvitationDto,
    @Ip() ip: string,
  ): Promise<InvitationWithLinkDto> {
    return this.invitations.create(scope, body, ip);
  }

  @Post(':id/resend')
  @HttpCode(200)
  @RateLimit('invite')
  @ApiOkResponse({ type: InvitationWithLinkDto })
  resend(
    @CurrentScope() scope: CompanyScope,
    @Param('id', INVITATION_ID) id: string,
    @Ip() ip: string,
  ): Promise<InvitationWithLinkDto> {
    return this.invitations.resend(scope, id, ip);
  }

  @Get(':id/link')
  @ApiOkResponse({ type: InvitationLinkDto })
  link(
    @CurrentScope() scope: CompanyScope,
    @Param('id', INVITATION_ID) id: string,
  ): Promise<InvitationLinkDto> {
    return this.invitations.link(scope, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(
    @CurrentScope() scope: CompanyScope,
    @Param('id', INVITATION_ID) id: string,
    @Ip() ip: string,
  ): Promise<void> {
    await this.invitations.remove(scope, id, ip);
  }
}
