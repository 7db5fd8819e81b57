import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import express from 'express';
import helmet from 'helmet';
import { AppModule } from './app.module';
import { closeConnectionsWhileDraining, trackRequestsInFlight } from './common/graceful-shutdown';
import { refuseDeepJson, refuseHostileText } from './common/hostile-body';
import { createValidationPipe } from './common/validation';
import { type AppConfig, type LogLevel, logLevelFrom } from './config/app-config';
import { runMigrations } from './database/migrate';
import { accessLog, appLoggerFor, createLogger, type RootLogger } from './logging/logger';
import { withLogging } from './logging/logging.module';
import { bindRequestContext } from './logging/request-context';
import { recordHttpRequests } from './metrics/metrics';
import { AppIoAdapter } from './realtime/app-io.adapter';
import { weakEtagForReads } from './web/etag';
import { compressApiResponses, serveFrontend } from './web/serve-frontend';
import { connectSources } from './voice/voice-csp';
import { AGENT_CALLBACK_PATH } from './agent-callbacks/callback-body';
import { sendMessageRoute } from './chats/send-message.route';

export type ReadyConfig = AppConfig & { databaseUrl: string };

/** Test apps log nothing unless LOG_LEVEL is set in the test run's environment. */
function testLogLevel(): LogLevel | 'silent' {
  return process.env.LOG_LEVEL ? logLevelFrom(process.env.LOG_LEVEL) : 'silent';
}

/**
 * Builds the api application (used by main.ts and by the integration tests alike). `logger`: the
 * process's root logger (main.ts), or `false` for a test app, quiet unless LOG_LEVEL is set.
 * `nestSendRoute`: for tests only, which compare the lean send-message route with Nest's own.
 */
export async function createApp(
  config: ReadyConfig,
  options: { logger?: false | RootLogger; nestSendRoute?: boolean } = {},
): Promise<INestApplication> {
  const root = options.logger || createLogger(options.logger === false ? testLogLevel() : config.logLevel);
  await runMigrations(config.databaseUrl);
  const app = await NestFactory.create<NestExpressApplication>(withLogging(AppModule.forRoot(config), root), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(appLoggerFor(root));
  app.useWebSocketAdapter(new AppIoAdapter(app, config.redisUrl));
  app.disable('x-powered-by');
  app.set('etag', weakEtagForReads);
  // First: a draining node waits for the requests in flight (common/graceful-shutdown.ts).
  app.use(trackRequestsInFlight);
  // Then every request gets its id and its access-log line, even one a later middleware refuses.
  app.use(accessLog(root));
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
          connectSrc: connectSources(config),
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
  app.use(compressApiResponses);
  app.use(cookieParser());
  // JSON only (no urlencoded parser): a cross-site HTML form cannot post a body any route accepts.
  // express.json rather than useBodyParser: Nest keeps `verify` for itself there.
  // Agent callbacks are not parsed here: their route reads the body (up to 1 MB, or as a stream) only
  // once the callback token is verified, so a forged request costs no parsing (agent-callbacks/).
  const json = express.json({ limit: '100kb', verify: refuseDeepJson });
  app.use((req: express.Request, res: express.Response, next: express.NextFunction) =>
    AGENT_CALLBACK_PATH.test(req.path) ? next() : json(req, res, next),
  );
  app.use(refuseHostileText);
  app.use(bindRequestContext);
  app.setGlobalPrefix('api');
  const validation = createValidationPipe();
  app.useGlobalPipes(validation);
  // Sending a message, the hot route, skips the router and Nest's pipeline (chats/send-message.route.ts).
  if (!options.nestSendRoute) app.use(sendMessageRoute(app, validation));

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

  // No Prometheus metrics on the api's port: they name the Node version, the traffic per route and the
  // webhooks' outcomes, for the operator's scraper only. METRICS_PORT serves them (metrics.module.ts);
  // `/metrics` here is a 404 (serve-frontend.ts never answers it with the app page).
  serveFrontend(app, config.frontendDist);
  return app;
}
