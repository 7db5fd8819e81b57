import { Module } from '@nestjs/common';
import { ChatsModule } from '../chats/chats.module';
import { AgentCallbackTokensModule } from './agent-callback-tokens.module';
import { AgentCallbacksController } from './agent-callbacks.controller';
import { AgentCallbacksService } from './agent-callbacks.service';

/** POST /api/agent-callbacks/:messageId (api processes). */
@Module({
  imports: [ChatsModule, AgentCallbackTokensModule],
  controllers: [AgentCallbacksController],
  providers: [AgentCallbacksService],
})
export class AgentCallbacksModule {}
