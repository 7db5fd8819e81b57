import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppModule } from '../src/app.module';
import { loadConfig } from '../src/config/app-config';
import { runMigrations } from '../src/database/migrate';
import { JobQueue } from '../src/queue/job-queue';
import type { EnqueueOptions, JobName, JobPayloads } from '../src/queue/job-types';
import type { ClientEventMap, ClientEventName } from '../src/realtime/client-events';
import { RealtimePublisher } from '../src/realtime/realtime-publisher';
import { testDatabaseUrl } from './app.test-util';
import {
  dateMessage,
  newAgent,
  newChat,
  newCompany,
  newInvitation,
  newMember,
  newMembership,
  newMessage,
  newUser,
} from './factories';

/** Records what services push instead of sending it: tests read what each user would have received. */
export class RecordingPublisher extends RealtimePublisher {
  readonly sent: Array<{ userId: string; event: ClientEventName; payload: unknown }> = [];

  toUser<E extends ClientEventName>(userId: string, event: E, payload: ClientEventMap[E]): void {
    this.sent.push({ userId, event, payload });
  }

  endSession(): void {}

  /** Events sent to rooms (company, managers), apart from those sent to one user. */
  readonly toRooms: Array<{ rooms: string[]; event: ClientEventName; payload: unknown }> = [];
  readonly roomChanges: Array<{ userId: string; join?: string[]; leave?: string[] }> = [];

  toRoom<E extends ClientEventName>(rooms: string | string[], event: E, payload: ClientEventMap[E]): void {
    this.toRooms.push({ rooms: Array.isArray(rooms) ? rooms : [rooms], event, payload });
  }

  /** Events sent to every socket. */
  readonly toAll: Array<{ event: ClientEventName; payload: unknown }> = [];

  toEveryone<E extends ClientEventName>(event: E, payload: ClientEventMap[E]): void {
    this.toAll.push({ event, payload });
  }

  joinRooms(userId: string, rooms: string[]): void {
    this.roomChanges.push({ userId, join: rooms });
  }

  leaveRooms(userId: string, rooms: string[]): void {
    this.roomChanges.push({ userId, leave: rooms });
  }

  /** Sockets moved between rooms by session (`session:{id}` targets). */
  readonly socketMoves: Array<{ targets: string[]; leave: string[]; join: string[] }> = [];

  moveSockets(targets: string[], rooms: { leave: string[]; join: string[] }): void {
    if (targets.length) this.socketMoves.push({ targets, ...rooms });
  }

  eventsOf(userId: string): ClientEventName[] {
    return this.sent.filter((e) => e.userId === userId).map((e) => e.event);
  }
}

/** Keeps queued jobs instead of running them, so a test decides when (and whether) a reply comes. */
export class HeldJobQueue extends JobQueue {
  readonly held: Array<{ name: JobName; data: unknown; options?: EnqueueOptions }> = [];

  enqueue<N extends JobName>(name: N, data: JobPayloads[N], options?: EnqueueOptions): Promise<void> {
    this.held.push({ name, data, options });
    return Promise.resolve();
  }

  /** Schedules are kept too; a test runs the job itself when it wants a turn. */
  readonly schedules: Array<{ name: JobName; everyMs: number }> = [];

  repeat<N extends JobName>(name: N, _data: JobPayloads[N], everyMs: number): Promise<void> {
    this.schedules.push({ name, everyMs });
    return Promise.resolve();
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  isQueued(name: JobName, jobId: string): Promise<boolean> {
    return Promise.resolve(this.held.some((job) => job.name === name && job.options?.jobId === jobId));
  }

  drain(): Promise<void> {
    return Promise.resolve();
  }
}

/** The factories of test/factories.ts, bound to one context's app. */
type Bound<F> = F extends (app: INestApplicationContext, ...rest: infer A) => infer R
  ? (...rest: A) => R
  : never;

export interface ServiceContext {
  /** The api's providers on the test run's real PostgreSQL: no HTTP, no sockets. */
  app: INestApplicationContext;
  /** Any service or repository, wired to its real dependencies (bar the two fakes below). */
  get<T>(type: Type<T>): T;
  /** What services pushed to users and rooms, instead of sockets. */
  events: RecordingPublisher;
  /** Jobs queued and schedules asked for, held instead of run. */
  jobs: HeldJobQueue;
  newUser: Bound<typeof newUser>;
  newCompany: Bound<typeof newCompany>;
  /** A new user with a company of their own, as owner. */
  newMember: Bound<typeof newMember>;
  newMembership: Bound<typeof newMembership>;
  newAgent: Bound<typeof newAgent>;
  newChat: Bound<typeof newChat>;
  newMessage: Bound<typeof newMessage>;
  newInvitation: Bound<typeof newInvitation>;
  dateMessage: Bound<typeof dateMessage>;
  close(): Promise<void>;
}

/**
 * The service tier: services called directly, as a controller or a job would, with their real
 * repositories on the real test database; realtime pushes and queued jobs are recorded, not sent. Rows a
 * test needs come from `ctx.new*()`, written through the app's own services and repositories.
 */
export async function createServiceContext(): Promise<ServiceContext> {
  const databaseUrl = testDatabaseUrl();
  await runMigrations(databaseUrl);
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-service-test-'));
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'test-secret-that-is-long-enough-0123456789' }),
    databaseUrl,
  };
  const events = new RecordingPublisher();
  const jobs = new HeldJobQueue();
  const app = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] })
    .overrideProvider(RealtimePublisher)
    .useValue(events)
    .overrideProvider(JobQueue)
    .useValue(jobs)
    .compile();
  await app.init();
  return {
    app,
    get: <T>(type: Type<T>) => app.get(type),
    events,
    jobs,
    newUser: (...args) => newUser(app, ...args),
    newCompany: (...args) => newCompany(app, ...args),
    newMember: () => newMember(app),
    newMembership: (...args) => newMembership(app, ...args),
    newAgent: (...args) => newAgent(app, ...args),
    newChat: (...args) => newChat(app, ...args),
    newMessage: (...args) => newMessage(app, ...args),
    newInvitation: (...args) => newInvitation(app, ...args),
    dateMessage: (...args) => dateMessage(app, ...args),
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A service context for the enclosing describe block: made before its first test, closed after its last.
 * The handle may be used inside tests and hooks only (it throws before the context exists).
 */
export function useServiceContext(): ServiceContext {
  let current: ServiceContext | undefined;
  beforeAll(async () => {
    current = await createServiceContext();
  });
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as ServiceContext, {
    get: (_target, key: keyof ServiceContext) => {
      if (!current)
        throw new Error('the service context is made in beforeAll: use it inside a test or a hook');
      return current[key];
    },
  });
}
