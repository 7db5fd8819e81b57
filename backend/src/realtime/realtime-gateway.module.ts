import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CompaniesModule } from '../companies/companies.module';
import { RealtimeGateway } from './realtime.gateway';

@Module({
  imports: [AuthModule, CompaniesModule],
  providers: [RealtimeGateway],
})
export class RealtimeGatewayModule {}
