import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from './audit/audit.module';
import { AccountJobsModule } from './auth/account-jobs.module';
import { ChatsModule } from './chats/chats.module';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { MailModule } from './mail/mail.module';
import { MetricsModule } from './metrics/metrics.module';
import { QueueModule } from './queue/queue.module';
import { RealtimeModule } from './realtime/realtime.module';

/** A worker process: the job handlers, no HTTP; events reach browsers through Redis. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig & { databaseUrl: string; redisUrl: string }): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot({ ...config, processRole: 'worker' }),
        DatabaseModule.forRoot(config.databaseUrl),
        QueueModule.forRoot({ ...config, processRole: 'worker' }),
        RealtimeModule.forWorker(config.redisUrl),
        AuditModule,
        MailModule,
        AccountJobsModule,
        ChatsModule,
        MetricsModule.forRoot(),
      ],
    };
  }
}
