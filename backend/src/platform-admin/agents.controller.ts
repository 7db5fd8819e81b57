import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { PlatformAgentPageDto, PlatformAgentsQuery } from './agents.dto';
import { PlatformAgentsService } from './agents.service';
import { SuperadminOnly } from './superadmin.guard';

/** Platform Admin → Agents: read-only. */
@ApiTags('platform admin')
@ApiBearerAuth()
@SuperadminOnly()
@Controller('admin/agents')
export class PlatformAgentsController {
  constructor(private readonly agents: PlatformAgentsService) {}

  @Get()
  @ApiOkResponse({ type: PlatformAgentPageDto })
  list(@Query() query: PlatformAgentsQuery): Promise<PlatformAgentPageDto> {
    return this.agents.list(query);
  }
}
