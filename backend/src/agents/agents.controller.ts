import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Ip,
  Param,
  Patch,
  Post,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
} from '@nestjs/swagger';
import { type CompanyScope, CurrentScope } from '../common/company-scope';
import { ValidationFailedError } from '../common/domain-errors';
import { UuidParamPipe } from '../common/uuid';
import { CompanyScoped } from '../companies/company-member.guard';
import { INVALID_IMAGE_MESSAGE, MAX_IMAGE_BYTES } from '../files/files.service';
import { AGENT_NOT_FOUND, AgentsService, DEFAULT_AGENT_ID } from './agents.service';
import { AgentDto, AgentWithSecretDto, CreateAgentDto, UpdateAgentDto } from './dto/agent.dto';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';

/** An agent's public id: a uuid, or 'default-agent'. */
const AGENT_ID = new UuidParamPipe(AGENT_NOT_FOUND, [DEFAULT_AGENT_ID]);

@CompanyScoped('agents')
@Controller('agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  @ApiOkResponse({ type: [AgentDto] })
  list(@CurrentScope() scope: CompanyScope): Promise<AgentDto[]> {
    return this.agents.list(scope);
  }

  @Post()
  @RateLimit('createAgent')
  @ApiCreatedResponse({ type: AgentWithSecretDto })
  create(@CurrentScope() scope: CompanyScope, @Body() body: CreateAgentDto): Promise<AgentWithSecretDto> {
    return this.agents.create(scope, body);
  }

  @Patch(':id')
  @ApiOkResponse({ type: AgentWithSecretDto })
  update(
    @CurrentScope() scope: CompanyScope,
    @Param('id', AGENT_ID) id: string,
    @Body() body: UpdateAgentDto,
  ): Promise<AgentWithSecretDto> {
    return this.agents.update(scope, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(
    @CurrentScope() scope: CompanyScope,
    @Param('id', AGENT_ID) id: string,
    @Ip() ip: string,
  ): Promise<void> {
    await this.agents.remove(scope, id, ip);
  }

  @Post(':id/avatar')
  @RateLimit('upload')
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiOkResponse({ type: AgentDto })
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5 } }))
  setAvatar(
    @CurrentScope() scope: CompanyScope,
    @Param('id', AGENT_ID) id: string,
    @UploadedFile() file: Express.Multer.File | undefined,
  ): Promise<AgentDto> {
    if (!file?.buffer?.length) throw new ValidationFailedError(INVALID_IMAGE_MESSAGE);
    return this.agents.setAvatar(scope, id, file.buffer);
  }
}
