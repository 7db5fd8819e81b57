import { Module } from '@nestjs/common';
import { CompaniesModule } from '../companies/companies.module';
import { FilesModule } from '../files/files.module';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { DemoAgentController } from './demo-agent.controller';
import { WebhookTestController } from './webhook-test.controller';
import { WebhookTestService } from './webhook-test.service';

@Module({
  imports: [FilesModule, CompaniesModule],
  controllers: [AgentsController, DemoAgentController, WebhookTestController],
  providers: [AgentsService, AgentsRepository, WebhookTestService],
  exports: [AgentsService],
})
export class AgentsModule {}
