import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { AppModule } from './app.module';
import { closeConnectionsWhileDraining } from './common/graceful-shutdown';
import { refuseDeepJson, refuseHostileText } from './common/hostile-body';
import { createValidationPipe } from './common/validation';
import type { AppConfig } from './config/app-config';
import { runMigrations } from './database/migrate';
import { recordHttpRequests, serveMetrics } from './metrics/metrics';
import { AppIoAdapter } from './realtime/app-io.adapter';

export type ReadyConfig = AppConfig & { databaseUrl: string };

/** Builds the api application (used by main.ts and by the integration tests alike). */
export async function createApp(
  config: ReadyConfig,
  options: { logger?: false } = {},
): Promise<INestApplication> {
  await runMigrations(config.databaseUrl);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    ...(options.logger === false ? { logger: false } : {}),
  });
  app.useWebSocketAdapter(new AppIoAdapter(app, config.redisUrl));
  app.disable('x-powered-by');
  app.use(recordHttpRequests);
  // Client addresses (rate limits) come from X-Forwarded-For only when a trusted proxy sent it.
  app.set('trust proxy', config.trustProxy);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // antd writes its styles at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          connectSrc: ["'self'", 'ws:', 'wss:'],
          fontSrc: ["'self'", 'data:'],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use(closeConnectionsWhileDraining);
  app.use(cookieParser());
  // JSON only (no urlencoded parser): a cross-site HTML form cannot post a body any route accepts.
  // express.json rather than useBodyParser: Nest keeps `verify` for itself there.
  app.use(express.json({ limit: '100kb', verify: refuseDeepJson }));
  app.use(refuseHostileText);
  app.setGlobalPrefix('api');
  app.useGlobalPipes(createValidationPipe());

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Switchboard API')
      .setDescription(
        'REST API of Switchboard. Access tokens come from /api/auth/login or /api/auth/refresh.',
      )
      .setVersion('1')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs/json' });

  // Prometheus metrics on the api's port, outside /api, unless METRICS_PORT serves them on their own.
  if (!config.metricsPort)
    (app.getHttpAdapter().getInstance() as express.Express).get('/metrics', serveMetrics);
  serveFrontend(app, config.frontendDist);
  return app;
}

const OPERATOR_PATHS = /^\/(metrics|healthz|readyz|livez|health|status|\.well-known)(\/|$)/;

/** The built SPA at /, with client-side routes falling back to index.html. */
function serveFrontend(app: NestExpressApplication, dist: string): void {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) return;
  app.use(
    express.static(dist, {
      index: false,
      setHeaders: (res, path) => {
        if (path.includes(`${join(dist, 'assets')}`))
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/api' || req.path.startsWith('/api/') || req.path.startsWith('/socket.io'))
      return next();
    // Operator paths that are not the app's: a probe or scraper must get a 404, never a 200 HTML page.
    if (OPERATOR_PATHS.test(req.path)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}
