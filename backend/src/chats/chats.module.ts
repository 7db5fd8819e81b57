import { Module } from '@nestjs/common';
import { AgentCallbackTokensModule } from '../agent-callbacks/agent-callback-tokens.module';
import { AgentsModule } from '../agents/agents.module';
import { CompaniesModule } from '../companies/companies.module';
import { FilesModule } from '../files/files.module';
import { InsightsRollupsModule } from '../insights/insights-rollups.module';
import { DeliveriesRecordingModule } from '../deliveries/deliveries-recording.module';
import { CompanyQuotasModule } from '../quotas/company-quotas.module';
import { ChatAttachmentsController } from './chat-attachments.controller';
import { ChatsController } from './chats.controller';
import { ChatsRepository } from './chats.repository';
import { ChatsService } from './chats.service';
import { ReplyFeedbackController } from './feedback/reply-feedback.controller';
import { ReplyFeedbackService } from './feedback/reply-feedback.service';
import { AgentFeedbackJobHandler } from './jobs/agent-feedback.job';
import { AgentReplyJobHandler } from './jobs/agent-reply.job';
import { StaleReplySweeper } from './jobs/stale-reply.sweeper';
import { MessagesRepository } from './messages.repository';
import { ReplyStopBus } from './streaming/reply-stop.bus';
import { ReplyStopController } from './streaming/reply-stop.controller';
import { ReplyStreamStore } from './streaming/reply-stream.store';
import { ReplyStreamingService } from './streaming/reply-streaming.service';
import { ReplyVersionsController } from './versions/reply-versions.controller';
import { ReplyVersionsRepository } from './versions/reply-versions.repository';
import { ReplyVersionsService } from './versions/reply-versions.service';

@Module({
  imports: [
    AgentsModule,
    CompaniesModule,
    AgentCallbackTokensModule,
    FilesModule,
    InsightsRollupsModule,
    DeliveriesRecordingModule,
    CompanyQuotasModule,
  ],
  controllers: [
    ChatsController,
    ReplyStopController,
    ReplyFeedbackController,
    ChatAttachmentsController,
    ReplyVersionsController,
  ],
  providers: [
    ChatsService,
    ChatsRepository,
    MessagesRepository,
    AgentReplyJobHandler,
    AgentFeedbackJobHandler,
    ReplyFeedbackService,
    StaleReplySweeper,
    ReplyStreamStore,
    ReplyStopBus,
    ReplyStreamingService,
    ReplyVersionsRepository,
    ReplyVersionsService,
  ],
  exports: [ChatsService, ReplyStreamingService, ReplyFeedbackService, ReplyVersionsRepository],
})
export class ChatsModule {}
