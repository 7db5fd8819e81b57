import { Controller, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/public.decorator';
import { RateLimit } from '../common/rate-limit/rate-limit.decorator';
import type { Request, Response } from 'express';
import { AgentCallbacksService, CallbackDeadlineError } from './agent-callbacks.service';
import { isStreamedCallback, readCallbackJson } from './callback-body';

/** After a refusal at the deadline, the agent has this long to read it; then its connection is cut. */
const CUT_AFTER_ANSWER_MS = 1000;

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
    // {output} or [{output}]: read and checked by the service once the token is verified, not a DTO
    // (the global JSON parser leaves this route alone). Streamed bodies are read as they arrive.
    @Req() req: Request,
  ): Promise<{ ok: true }> {
    if (!isStreamedCallback(contentType)) {
      await this.callbacks.deliver(messageId, authorization, () =>
        readCallbackJson(req, req.res as Response),
      );
      return { ok: true };
    }
    try {
      // Not destroyed when the service stops reading early (an error chunk, Stop, over 1 MB): the
      // answer must still reach the agent.
      await this.callbacks.deliverStream(
        messageId,
        authorization,
        contentType,
        req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>,
      );
    } catch (error) {
      // Still sending at its deadline: the agent gets its 410, what it sends meanwhile is discarded
      // unread, then the connection is cut (a stream that never ends would otherwise be read forever).
      if (error instanceof CallbackDeadlineError && !req.complete)
        req.res?.once('finish', () => setTimeout(() => req.socket.destroy(), CUT_AFTER_ANSWER_MS).unref());
      throw error;
    }
    return { ok: true };
  }
}
