import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ChatsModule } from '../chats/chats.module';
import { CompaniesModule } from '../companies/companies.module';
import { AppearanceModule } from '../platform-admin/appearance.module';
import { CatchUpService } from './catch-up';
import { RealtimeGateway } from './realtime.gateway';

@Module({
  imports: [AuthModule, CompaniesModule, ChatsModule, AppearanceModule],
  providers: [RealtimeGateway, CatchUpService],
})
export class RealtimeGatewayModule {}
