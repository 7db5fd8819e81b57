// One Nest application on either platform (`node nest-server.mjs express|express-lean|fastify`), for
// bench/tools/framework-cost.mjs: the app's middleware set (bootstrap.ts) and routes shaped like its
// send route and history page, behind a global guard and the app's global ValidationPipe. Plain
// JavaScript, so the decorators TypeScript would apply are applied by hand (decorate() below).
import 'reflect-metadata';
import { createRequire } from 'node:module';
import {
  BODY_LIMIT,
  COMPRESS_THRESHOLD,
  HELMET_OPTIONS,
  MAX_ATTACHMENTS,
  MAX_MESSAGE_LENGTH,
  bearerClaims,
  historyPage,
  messageAnswer,
  reportToParent,
} from './route.mjs';

const require = createRequire(import.meta.url);
const {
  BadRequestException,
  Body,
  Controller,
  Get,
  Injectable,
  Module,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Req,
  UnauthorizedException,
  ValidationPipe,
} = require('@nestjs/common');
const { APP_GUARD, NestFactory, Reflector } = require('@nestjs/core');
const { Transform } = require('class-transformer');
const { ArrayMaxSize, IsArray, IsUUID, ValidateBy, ValidateIf } = require('class-validator');

const platform = process.argv[2];
if (!['express', 'express-lean', 'fastify'].includes(platform)) {
  console.error('usage: node bench/lib/framework/nest-server.mjs express|express-lean|fastify');
  process.exit(2);
}

/** What TypeScript's emitted `__decorate` does for a class (key omitted) or a member. */
function decorate(decorators, target, key, paramTypes) {
  if (paramTypes) Reflect.defineMetadata('design:paramtypes', paramTypes, target, key);
  if (key === undefined) return Reflect.decorate(decorators, target);
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  const result = Reflect.decorate(decorators, target, key, descriptor);
  if (result) Object.defineProperty(target, key, result);
  return target;
}

// --- The DTO: chats/dto/chat.dto.ts's SendMessageDto. ---------------------------------------------

const trim = ({ value }) => (typeof value === 'string' ? value.trim() : value);
const withFiles = (o) => Array.isArray(o.attachmentIds) && o.attachmentIds.length > 0;
const tooLong = (value) => typeof value === 'string' && value.length > MAX_MESSAGE_LENGTH;

class SendMessageDto {}
decorate(
  [
    Transform(trim),
    ValidateBy({
      name: 'isMessageContent',
      validator: {
        validate: (value, args) => {
          const files = args ? withFiles(args.object) : false;
          if (value === undefined || value === null) return files;
          if (typeof value !== 'string' || tooLong(value)) return false;
          return files || /\S/.test(value);
        },
        defaultMessage: (args) =>
          tooLong(args?.value)
            ? `A message can be at most ${MAX_MESSAGE_LENGTH} characters`
            : 'Please enter a message',
      },
    }),
  ],
  SendMessageDto.prototype,
  'content',
);
decorate(
  [
    ValidateIf((_object, value) => value !== undefined),
    IsArray({ message: 'attachmentIds must be a list of file ids' }),
    ArrayMaxSize(MAX_ATTACHMENTS, { message: `A message can carry at most ${MAX_ATTACHMENTS} files.` }),
    IsUUID('all', { each: true, message: 'An attached file was not found. Please attach it again.' }),
  ],
  SendMessageDto.prototype,
  'attachmentIds',
);

// --- The global pipe: common/validation.ts. ---------------------------------------------------------

const FIRST = ['whitelistValidation', 'isDefined', 'isNotEmpty', 'isString'];
const priority = (constraint) =>
  FIRST.indexOf(constraint) === -1 ? FIRST.length : FIRST.indexOf(constraint);

function firstMessage(errors) {
  for (const error of errors) {
    const constraints = error.constraints ?? {};
    const keys = Object.keys(constraints).sort((a, b) => priority(a) - priority(b));
    if (keys.length) {
      const message = constraints[keys[0]];
      return message.startsWith('property ') ? `Unknown field "${error.property}".` : message;
    }
    const nested = error.children?.length ? firstMessage(error.children) : undefined;
    if (nested) return nested;
  }
  return undefined;
}

const validationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: (errors) => new BadRequestException(firstMessage(errors) ?? 'The request is not valid.'),
});

// --- The global guard: auth/access-token.guard.ts without its session query. -----------------------

const IS_PUBLIC = 'isPublic';

class AccessTokenGuard {
  constructor(reflector) {
    this.reflector = reflector;
  }

  canActivate(context) {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest();
    const claims = bearerClaims(request.headers.authorization);
    if (!claims) throw new UnauthorizedException('Authentication required');
    request.user = { id: claims.sub, sessionId: claims.sid };
    return true;
  }
}
decorate([Injectable()], AccessTokenGuard, undefined, [Reflector]);

// --- The controller: chats/chats.controller.ts's send and messages. --------------------------------

class ChatsController {
  send(id, body, request) {
    return messageAnswer(id, request.user.id, body.content ?? '');
  }

  messages(id, request) {
    return historyPage(id, request.user.id);
  }
}
// @Req() is platform-specific (an Express or a Fastify request); the user the guard set is on both.
Req()(ChatsController.prototype, 'send', 2);
Param('id', ParseUUIDPipe)(ChatsController.prototype, 'send', 0);
Body()(ChatsController.prototype, 'send', 1);
decorate([Post('chats/:id/messages')], ChatsController.prototype, 'send', [String, SendMessageDto, Object]);
Req()(ChatsController.prototype, 'messages', 1);
Param('id', ParseUUIDPipe)(ChatsController.prototype, 'messages', 0);
decorate([Get('chats/:id/messages')], ChatsController.prototype, 'messages', [String, Object]);
decorate([Controller()], ChatsController, undefined, []);

/**
 * The app has about 110 routes, some 40 of them registered before the send route. Express matches a
 * request against its routes one by one (Fastify looks it up in a radix tree), so the measured routes
 * come after as many others (FRAMEWORK_COST_ROUTES_BEFORE), app-shaped: list, read, create, update.
 */
function routesBefore(count) {
  const verbs = [
    ['list', Get, ''],
    ['read', Get, ':id'],
    ['create', Post, ''],
    ['update', Patch, ':id'],
  ];
  const controllers = [];
  for (let c = 0; c * verbs.length < count; c++) {
    const controller = class {};
    Object.defineProperty(controller, 'name', { value: `Resource${c}Controller` });
    for (const [method, verb, path] of verbs.slice(0, count - c * verbs.length)) {
      controller.prototype[method] = () => ({ ok: true });
      decorate([verb(path)], controller.prototype, method, []);
    }
    controllers.push(decorate([Controller(`resources-${c}`)], controller, undefined, []));
  }
  return controllers;
}
const ROUTES_BEFORE = Number(process.env.FRAMEWORK_COST_ROUTES_BEFORE ?? 40);

class BenchModule {}
decorate(
  [
    Module({
      controllers: [...routesBefore(ROUTES_BEFORE), ChatsController],
      providers: [{ provide: APP_GUARD, useClass: AccessTokenGuard }],
    }),
  ],
  BenchModule,
);

// --- The platform: bootstrap.ts's middleware set, or its Fastify counterparts. ---------------------

/**
 * `lean`: one change that stays on Express. compression wraps every response (on-headers, its own
 * write and end) even when its filter then says no: mounted for GET and HEAD only, where the large
 * answers are. (ETag stays: the app's appearance route answers 304 by it.)
 */
async function expressApp({ lean }) {
  const compression = require('compression');
  const cookieParser = require('cookie-parser');
  const express = require('express');
  const helmet = require('helmet');
  const app = await NestFactory.create(BenchModule, { bodyParser: false, logger: false });
  app.disable('x-powered-by');
  app.use(helmet(HELMET_OPTIONS));
  const compress = compression({
    threshold: COMPRESS_THRESHOLD,
    filter: (req, res) => req.url?.startsWith('/api/') && compression.filter(req, res),
  });
  app.use(
    lean
      ? (req, res, next) =>
          req.method === 'GET' || req.method === 'HEAD' ? compress(req, res, next) : next()
      : compress,
  );
  app.use(cookieParser());
  app.use(express.json({ limit: BODY_LIMIT }));
  return app;
}

async function fastifyApp() {
  const { FastifyAdapter } = require('@nestjs/platform-fastify');
  const adapter = new FastifyAdapter({ bodyLimit: BODY_LIMIT });
  // Fastify parses text/plain bodies too: a cross-site form could post one. JSON only, as in the app.
  adapter.getInstance().removeContentTypeParser('text/plain');
  const app = await NestFactory.create(BenchModule, adapter, { bodyParser: false, logger: false });
  await app.register(require('@fastify/helmet'), HELMET_OPTIONS);
  await app.register(require('@fastify/compress'), { threshold: COMPRESS_THRESHOLD });
  await app.register(require('@fastify/cookie'));
  return app;
}

const app =
  platform === 'fastify' ? await fastifyApp() : await expressApp({ lean: platform === 'express-lean' });
app.setGlobalPrefix('api');
app.useGlobalPipes(validationPipe);
await app.listen(0, '127.0.0.1');
reportToParent(app.getHttpServer().address().port);
