import { Body, Controller, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/public.decorator';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import { AgentCallbacksService } from './agent-callbacks.service';

/**
 * Long-running agents deliver their replies here. No user session: the per-message callback token (in
 * `Authorization: Bearer`) is the credential, so the route is public to the access-token guard.
 */
@ApiTags('agents')
@Public()
@Controller('agent-callbacks')
export class AgentCallbacksController {
  constructor(private readonly callbacks: AgentCallbacksService) {}

  @Post(':messageId')
  @HttpCode(200)
  @RateLimit('agentCallback')
  @ApiBearerAuth()
  @ApiOperation({
    summary:
      "An agent that answered 202 Accepted delivers its reply (Bearer: the webhook body's callbackToken)",
  })
  @ApiBody({ schema: { example: { output: 'The report is ready.' } } })
  @ApiOkResponse({ schema: { example: { ok: true } } })
  async deliver(
    @Param('messageId') messageId: string,
    @Headers('authorization') authorization: string | undefined,
    @Headers('content-type') contentType: string | undefined,
    // {output}, [{output}] or a streamed body (text): checked by the service, not a DTO.
    @Body() body: unknown,
  ): Promise<{ ok: true }> {
    await this.callbacks.deliver(messageId, authorization, body, contentType);
    return { ok: true };
  }
}
