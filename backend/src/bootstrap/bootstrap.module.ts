import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ChatsModule } from '../chats/chats.module';
import { CompaniesModule } from '../companies/companies.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { BootstrapController } from './bootstrap.controller';
import { BootstrapService } from './bootstrap.service';

/** GET /api/bootstrap: a signed-in page's first screen in one answer. */
@Module({
  imports: [ProfilesModule, CompaniesModule, AgentsModule, ChatsModule],
  controllers: [BootstrapController],
  providers: [BootstrapService],
})
export class BootstrapModule {}
