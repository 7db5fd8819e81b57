import { createServer, type Server } from 'node:http';
import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { BullJobQueue } from '../queue/bullmq-job-queue';
import { JobQueue } from '../queue/job-queue';
import { SocketServerRef } from '../realtime/socket-server.ref';
import { addScrapeSource, serveMetrics } from './metrics';

function optional<T>(moduleRef: ModuleRef, token: abstract new (...args: never[]) => T): T | null {
  try {
    return moduleRef.get(token, { strict: false });
  } catch {
    return null;
  }
}

/**
 * Feeds the scrape-time values of this process (open sockets on an api, queue depth with BullMQ) and,
 * when METRICS_PORT is set, serves `/metrics` on that port: the only HTTP a worker process answers.
 * Without METRICS_PORT nothing serves them (never on the app's PORT, open to anyone).
 */
@Injectable()
export class MetricsHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private removeSource: (() => void) | null = null;
  private server: Server | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const io = optional(this.moduleRef, SocketServerRef);
    const queue = optional(this.moduleRef, JobQueue);
    this.removeSource = addScrapeSource({
      sockets: io ? () => io.server?.engine?.clientsCount ?? 0 : undefined,
      queueCounts:
        queue instanceof BullJobQueue
          ? () => queue.queue.getJobCounts('waiting', 'active', 'delayed')
          : undefined,
    });
    if (this.config.metricsPort) await this.listen(this.config.metricsPort);
  }

  private listen(port: number): Promise<void> {
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD'))
        return serveMetrics(req, res);
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('Not found: metrics are at /metrics\n');
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.host, () => {
        server.off('error', reject);
        this.logger.log(`Prometheus metrics at http://${this.config.host ?? 'localhost'}:${port}/metrics`);
        resolve();
      });
    });
  }

  /** The port the metrics server listens on (METRICS_PORT, or the one the OS gave for 0). */
  get port(): number | null {
    const address = this.server?.address();
    return typeof address === 'object' && address ? address.port : null;
  }

  async onApplicationShutdown(): Promise<void> {
    this.removeSource?.();
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // A scraper's kept-alive connection would hold the close for seconds.
    server.closeAllConnections();
    await closed;
  }
}

@Module({})
export class MetricsModule {
  static forRoot(): DynamicModule {
    return { module: MetricsModule, providers: [MetricsHost], exports: [MetricsHost] };
  }
}
