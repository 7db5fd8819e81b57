import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AuthModule } from '../auth/auth.module';
import { ChatsModule } from '../chats/chats.module';
import { CompaniesModule } from '../companies/companies.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { BootstrapController, SessionBootstrapController } from './bootstrap.controller';
import { BootstrapService } from './bootstrap.service';

/** GET /api/bootstrap: a signed-in page's first screen in one answer (POST /api/auth/session: with the refresh). */
@Module({
  imports: [AuthModule, ProfilesModule, CompaniesModule, AgentsModule, ChatsModule],
  controllers: [BootstrapController, SessionBootstrapController],
  providers: [BootstrapService],
})
export class BootstrapModule {}
