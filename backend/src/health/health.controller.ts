import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { lifecycle } from '../common/graceful-shutdown';
import { Public } from '../common/public.decorator';
import { Database } from '../database/database';
import { JobQueue } from '../queue/job-queue';

type CheckState = 'up' | 'down';

interface Readiness {
  status: 'ok' | 'unavailable';
  checks: { database: CheckState; queue: CheckState };
}

const CHECK_TIMEOUT_MS = 2000;

/** Resolves 'up' when `probe` answers within the timeout, 'down' otherwise (never throws). */
async function probe(run: () => Promise<unknown>): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckState>((resolve) => {
    timer = setTimeout(() => resolve('down'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([run().then((): CheckState => 'up'), timeout]);
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/** For load balancers and orchestrators. */
@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: Database,
    private readonly queue: JobQueue,
  ) {}

  /** 200 when this node can reach the database (kept for existing checks; prefer /ready). */
  @Get()
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  async check(): Promise<{ status: 'ok' }> {
    await this.database.ping();
    return { status: 'ok' };
  }

  /** Liveness: the process answers. Restart it only when this fails. */
  @Get('live')
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Readiness: the database and the job queue (Redis, when configured) answer. A balancer sends no
   * traffic to a node answering 503 here; nothing needs restarting, the node recovers by itself.
   */
  @Get('ready')
  @ApiOkResponse({ schema: { example: { status: 'ok', checks: { database: 'up', queue: 'up' } } } })
  @ApiServiceUnavailableResponse({ description: 'A dependency does not answer' })
  async ready(@Res({ passthrough: true }) res: Response): Promise<Readiness> {
    const [database, queue] = await Promise.all([
      probe(() => this.database.ping()),
      probe(() => this.queue.ping()),
    ]);
    // A draining node (SIGTERM) is alive but takes no new work.
    const ok = database === 'up' && queue === 'up' && !lifecycle.draining;
    if (!ok) res.status(503);
    return { status: ok ? 'ok' : 'unavailable', checks: { database, queue } };
  }
}
