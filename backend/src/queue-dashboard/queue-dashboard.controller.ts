import { Controller, Inject, Post, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { SameOriginGuard } from '../auth/same-origin.guard';
import { type AuthUser, CurrentUser } from '../common/current-user.decorator';
import { NotFoundError } from '../common/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { QueueDashboardSession } from '../contracts/operations';
import { SuperadminOnly } from '../platform-admin/superadmin.guard';
import { QueueDashboardAccess } from './queue-dashboard-access';

export const NO_QUEUE_DASHBOARD =
  'This installation has no queue dashboard: it runs its jobs in-process (REDIS_URL is not set).';

/** Opens the queue dashboard for a superadmin (see contracts/operations.ts). */
@ApiTags('operations')
@ApiBearerAuth()
@SuperadminOnly()
@Controller('admin/queues')
export class QueueDashboardController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly access: QueueDashboardAccess,
  ) {}

  @Post('session')
  @UseGuards(SameOriginGuard)
  @ApiCreatedResponse({ description: 'Sets the dashboard cookie (httpOnly, path /api/admin/queues).' })
  openSession(
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ): QueueDashboardSession {
    if (!this.config.redisUrl) throw new NotFoundError(NO_QUEUE_DASHBOARD);
    return this.access.openSession(user.id, user.sessionId, res);
  }
}
