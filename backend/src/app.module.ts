import { InsightsModule } from './insights/insights.module';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AgentCallbacksModule } from './agent-callbacks/agent-callbacks.module';
import { AgentsModule } from './agents/agents.module';
import { AuditApiModule } from './audit/audit-api.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { BootstrapModule } from './bootstrap/bootstrap.module';
import { ChatsModule } from './chats/chats.module';
import { ChatExportModule } from './chats/export/chat-export.module';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { CompaniesModule } from './companies/companies.module';
import { CompanyAdminModule } from './company-admin/company-admin.module';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { DatabaseModule } from './database/database.module';
import { FilesModule } from './files/files.module';
import { HealthController } from './health/health.controller';
import { InvitationsModule } from './invitations/invitations.module';
import { MailModule } from './mail/mail.module';
import { MetricsModule } from './metrics/metrics.module';
import { PlatformAdminModule } from './platform-admin/platform-admin.module';
import { ProfilesModule } from './profiles/profiles.module';
import { QueueModule } from './queue/queue.module';
import { QueueDashboardModule } from './queue-dashboard/queue-dashboard.module';
import { RealtimeGatewayModule } from './realtime/realtime-gateway.module';
import { RealtimeModule } from './realtime/realtime.module';
import { SearchModule } from './search/search.module';
import { SsoModule } from './sso/sso.module';
import { VoiceModule } from './voice/voice.module';

/** The api process: HTTP routes (and, in the embedded default, the job handlers in-process). */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig & { databaseUrl: string }): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        RateLimitModule.forRoot(config),
        DatabaseModule.forRoot(config.databaseUrl),
        QueueModule.forRoot(config),
        RealtimeModule.forApi(),
        AuditModule,
        MailModule,
        FilesModule,
        CompaniesModule,
        ProfilesModule,
        AuthModule,
        AgentsModule,
        ChatsModule,
        AgentCallbacksModule,
        ChatExportModule,
        SearchModule,
        BootstrapModule,
        VoiceModule,
        CompanyAdminModule,
        InsightsModule,
        DeliveriesModule,
        InvitationsModule,
        SsoModule,
        PlatformAdminModule,
        AuditApiModule,
        RealtimeGatewayModule,
        MetricsModule.forRoot(),
        QueueDashboardModule.forRoot(config),
      ],
      controllers: [HealthController],
      // A provider of its own, so the lean send-message route can render errors with it (bootstrap.ts).
      providers: [AllExceptionsFilter, { provide: APP_FILTER, useExisting: AllExceptionsFilter }],
    };
  }
}
