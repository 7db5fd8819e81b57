import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  UploadedFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CompanyMemberGuard, CurrentCompany, type CompanyScope } from '../companies/company-member.guard';
import { CurrentUser, type AuthUser } from '../common/current-user.decorator';
import { ValidationFailedError } from '../common/domain-errors';
import { INVALID_IMAGE_MESSAGE, MAX_IMAGE_BYTES } from '../files/files.service';
import { AgentsService } from './agents.service';
import { AgentDto, AgentWithSecretDto, CreateAgentDto, UpdateAgentDto } from './dto/agent.dto';

@ApiTags('agents')
@ApiBearerAuth()
@ApiHeader({ name: 'X-Company-Id', required: true, description: 'The current company' })
@UseGuards(CompanyMemberGuard)
@Controller('agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  @ApiOkResponse({ type: [AgentDto] })
  list(@CurrentUser() user: AuthUser, @CurrentCompany() company: CompanyScope): Promise<AgentDto[]> {
    return this.agents.list(user.id, company.companyId);
  }

  @Post()
  @ApiCreatedResponse({ type: AgentWithSecretDto })
  create(
    @CurrentUser() user: AuthUser,
    @CurrentCompany() company: CompanyScope,
    @Body() body: CreateAgentDto,
  ): Promise<AgentWithSecretDto> {
    return this.agents.create(user.id, company.companyId, body);
  }

  @Patch(':id')
  @ApiOkResponse({ type: AgentWithSecretDto })
  update(
    @CurrentUser() user: AuthUser,
    @CurrentCompany() company: CompanyScope,
    @Param('id') id: string,
    @Body() body: UpdateAgentDto,
  ): Promise<AgentWithSecretDto> {
    return this.agents.update(user.id, company.companyId, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(
    @CurrentUser() user: AuthUser,
    @CurrentCompany() company: CompanyScope,
    @Param('id') id: string,
  ): Promise<void> {
    await this.agents.remove(user.id, company.companyId, id);
  }

  @Post(':id/avatar')
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiOkResponse({ type: AgentDto })
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5 } }))
  setAvatar(
    @CurrentUser() user: AuthUser,
    @CurrentCompany() company: CompanyScope,
    @Param('id') id: string,
    @UploadedFile() file: Express.Multer.File | undefined,
  ): Promise<AgentDto> {
    if (!file?.buffer?.length) throw new ValidationFailedError(INVALID_IMAGE_MESSAGE);
    return this.agents.setAvatar(user.id, company.companyId, id, file.buffer);
  }
}
