import { Body, Controller, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/public.decorator';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import type { Request } from 'express';
import { AgentCallbacksService } from './agent-callbacks.service';
import { isStreamedCallback } from './callback-body';

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
    // {output} or [{output}]: checked by the service, not a DTO. Streamed bodies are not parsed here:
    // the service reads them from the request as they arrive.
    @Body() body: unknown,
    @Req() req: Request,
  ): Promise<{ ok: true }> {
    if (isStreamedCallback(contentType))
      // Not destroyed when the service stops reading early (an error chunk, Stop, over 1 MB): the
      // answer must still reach the agent.
      await this.callbacks.deliverStream(
        messageId,
        authorization,
        contentType,
        req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>,
      );
    else await this.callbacks.deliver(messageId, authorization, body);
    return { ok: true };
  }
}
