import { Module } from '@nestjs/common';
import { AgentCallbackTokensRepository } from './agent-callback-tokens.repository';
import { AgentCallbackTokensService } from './agent-callback-tokens.service';

/**
 * The tokens alone, for the reply job and the sweep (chats module, api and worker); the callback route,
 * which needs the chats module, is AgentCallbacksModule (api only).
 */
@Module({
  providers: [AgentCallbackTokensService, AgentCallbackTokensRepository],
  exports: [AgentCallbackTokensService],
})
export class AgentCallbackTokensModule {}
