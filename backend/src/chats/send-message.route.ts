import type { ValidationPipe } from '@nestjs/common';
import {
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  INTERCEPTORS_METADATA,
  PIPES_METADATA,
} from '@nestjs/common/constants';
import { ApplicationConfig, Reflector } from '@nestjs/core';
import type { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import express, { type RequestHandler, type Response } from 'express';
import { AccessTokenGuard } from '../auth/access-token.guard';
import { AllExceptionsFilter } from '../common/all-exceptions.filter';
import type { AuthenticatedRequest } from '../common/current-user.decorator';
import { RATE_LIMIT } from '../common/rate-limit/rate-limit.decorator';
import { RateLimitGuard } from '../common/rate-limit/rate-limit.guard';
import type { RateLimitName } from '../common/rate-limit/rate-limits';
import { CompanyMemberGuard, companyIdOf } from '../companies/company-member.guard';
import { CHAT_ID, ChatsController, SEND_MESSAGE_PATH } from './chats.controller';
import { plainSendMessage, SendMessageDto } from './dto/chat.dto';

/**
 * The lean send-message route: `POST /api/chats/:id/messages`, the product's hot path, answered by an
 * Express middleware instead of Express's application router and Nest's per-request pipeline (matching
 * the request against every route, execution contexts and metadata lookups for the guards, the param and
 * response plumbing): about a tenth of the app's CPU per message sent (bench/tools/ab.mjs). The answers
 * are the same because every step is the Nest route's own code, called in Nest's order:
 *
 * 1. AccessTokenGuard.authenticate (global guard), 2. RateLimitGuard.check with the handler's
 * `@RateLimit` (global guard), 3. CompanyMemberGuard's check (the controller's guard), 4. the `:id`
 * pipe, 5. the app's global ValidationPipe on the body (a plain `{ content }` by the DTO's own rules
 * without it: plainSendMessage in chat.dto.ts), 6. ChatsController.send, answered 201 as JSON
 * like Nest's Express adapter does; any error is rendered by the app's AllExceptionsFilter.
 *
 * The global ValidationPipe also sees the `:id` string, but leaves a string as it is (it converts
 * only to numbers and booleans), so it is not called for it here. The id is checked before the body:
 * in Nest both are checked and the id's error is the one answered. A one-route express.Router with the
 * application router's matching options decides which requests are taken (the same case-insensitivity,
 * optional trailing slash and percent-decoding of `:id`), sets `req.route` for the metrics' route label,
 * and hands every other request on untouched.
 */
export function sendMessageRoute(app: NestExpressApplication, validation: ValidationPipe): RequestHandler {
  const tokens = app.get(AccessTokenGuard);
  const rateLimits = app.get(RateLimitGuard);
  const companies = app.get(CompanyMemberGuard);
  const controller = app.get(ChatsController);
  const errors = app.get(AllExceptionsFilter);
  const handler = ChatsController.prototype.send;
  refuseWhatItDoesNotApply(app, validation, handler);
  const rateLimit = app.get(Reflector).get<RateLimitName | undefined>(RATE_LIMIT, handler);
  if (!rateLimit) throw new Error('ChatsController.send lost its @RateLimit: update send-message.route.ts');

  const send = async (req: AuthenticatedRequest, res: Response): Promise<void> => {
    try {
      const user = await tokens.authenticate(req);
      await rateLimits.check(rateLimit, req, res);
      const scope = await companies.scopeOf(user, companyIdOf(req));
      const id = CHAT_ID.transform(req.params.id as string);
      const body =
        plainSendMessage(req.body) ??
        ((await validation.transform(req.body, {
          type: 'body',
          metatype: SendMessageDto,
        })) as SendMessageDto);
      const message = await controller.send(scope, id, body);
      res.status(201).json(message);
    } catch (error) {
      errors.render(error, res);
    }
  };

  const { caseSensitive, ignoreTrailingSlash } = (
    app.getHttpAdapter() as ExpressAdapter
  ).getRouteMatchingOptions();
  const router = express.Router({ caseSensitive, strict: !ignoreTrailingSlash });
  // The global prefix ('api') as the app was given it, before this route is made.
  const prefix = app.get(ApplicationConfig).getGlobalPrefix();
  router.post(`/${prefix}/${SEND_MESSAGE_PATH}`, (req, res) => void send(req as AuthenticatedRequest, res));
  // Only a POST goes in: a router answers an OPTIONS request for a path it knows itself ("Allow: POST"),
  // where the application's router answers it otherwise.
  return (req, res, next) => (req.method === 'POST' ? router(req, res, next) : next());
}

/**
 * The route above does what the app's global enhancers and the Nest route's decorators say today. A
 * guard, interceptor, pipe, filter, status or header added to the app, the controller or its `send` later
 * would be skipped here without a word, so the app refuses to start until this file follows.
 */
function refuseWhatItDoesNotApply(
  app: NestExpressApplication,
  validation: ValidationPipe,
  handler: object,
): void {
  const config = app.get(ApplicationConfig);
  const same = (actual: unknown[], expected: unknown[]) =>
    actual.length === expected.length && actual.every((item, i) => item === expected[i]);
  const globals =
    same(config.getGlobalGuards(), [app.get(AccessTokenGuard), app.get(RateLimitGuard)]) &&
    same(config.getGlobalPipes(), [validation]) &&
    same(config.getGlobalFilters(), [app.get(AllExceptionsFilter)]) &&
    [
      config.getGlobalInterceptors(),
      config.getGlobalRequestGuards(),
      config.getGlobalRequestPipes(),
      config.getGlobalRequestFilters(),
      config.getGlobalRequestInterceptors(),
      config.getGlobalPreRequestHooks(),
    ].every((list) => list.length === 0);
  const classGuards: unknown[] = Reflect.getMetadata(GUARDS_METADATA, ChatsController) ?? [];
  const extra = [
    ...[INTERCEPTORS_METADATA, PIPES_METADATA, EXCEPTION_FILTERS_METADATA].flatMap(
      (key): unknown[] => Reflect.getMetadata(key, ChatsController) ?? [],
    ),
    ...[GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA, EXCEPTION_FILTERS_METADATA].flatMap(
      (key): unknown[] => Reflect.getMetadata(key, handler) ?? [],
    ),
    ...[HTTP_CODE_METADATA, HEADERS_METADATA].filter(
      (key) => Reflect.getMetadata(key, handler) !== undefined,
    ),
  ];
  if (!globals || !same(classGuards, [CompanyMemberGuard]) || extra.length)
    throw new Error(
      'The app or ChatsController.send has enhancers the lean send route does not apply: update send-message.route.ts',
    );
}
