import { Module } from '@nestjs/common';
import { AppearanceModule } from './appearance.module';
import { SuperadminGuard } from './superadmin.guard';
import { PlatformUsersModule } from './users.module';

/**
 * Platform administration (/api/admin/*): appearance, users, companies, agents, audit. Every controller
 * here is marked @SuperadminOnly().
 */
@Module({
  imports: [AppearanceModule, PlatformUsersModule],
  controllers: [],
  providers: [SuperadminGuard],
  exports: [SuperadminGuard],
})
export class PlatformAdminModule {}
