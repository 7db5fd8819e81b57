import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { Client } from 'pg';
import request from 'supertest';
import { createApp } from '../src/bootstrap';
import { type AppConfig, loadConfig } from '../src/config/app-config';
import { JobQueue } from '../src/queue/job-queue';

export interface TestApp {
  app: INestApplication;
  http: Server;
  /** http://127.0.0.1:PORT — the app listens, so sockets can connect. */
  baseUrl: string;
  config: AppConfig & { databaseUrl: string };
  /** Waits for queued jobs (mail) to finish. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export function testDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: jest global setup should have provided one');
  return url;
}

/**
 * The api as `npm start` builds it, on the test run's real PostgreSQL, mail written to a temp folder.
 * `appOptions`: createApp's test-only options.
 */
export async function createTestApp(
  env: NodeJS.ProcessEnv = {},
  databaseUrl = testDatabaseUrl(),
  appOptions: { nestSendRoute?: boolean } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-test-'));
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
      // Suites sign up many accounts from one address; rate-limit tests set RATE_LIMIT_SCALE: '1'.
      RATE_LIMIT_SCALE: '100',
      ...env,
    }),
    databaseUrl,
  };
  const app = await createApp(config, { logger: false, ...appOptions });
  await app.listen(0, '127.0.0.1');
  const queue = app.get(JobQueue);
  const http = app.getHttpServer() as Server;
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    http,
    baseUrl: `http://127.0.0.1:${port}`,
    config,
    drain: () => queue.drain(),
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * An app for the enclosing describe block: started before its tests, closed after them. Read `.t` in
 * tests and hooks (it is not there yet while the block is being declared).
 */
export function useTestApp(env: NodeJS.ProcessEnv = {}): { readonly t: TestApp } {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp(env);
  });
  afterAll(async () => {
    await t?.close();
  });
  return {
    get t() {
      if (!t) throw new Error('the test app is not started yet (read it inside a test or hook)');
      return t;
    },
  };
}

/** A brand-new empty database on the same server, for tests that need "a fresh installation". */
export async function createFreshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(testDatabaseUrl());
  const name = `sb_fresh_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}@example.com`;
}

export interface RegisteredUser {
  email: string;
  password: string;
  accessToken: string;
  refreshCookie: string;
  userId: string;
  companyId: string;
}

export function cookieFrom(res: request.Response, name = 'sb_refresh'): string {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookie = (raw ?? []).find((c) => c.startsWith(`${name}=`));
  if (!cookie) throw new Error(`no ${name} cookie in response`);
  return cookie.split(';')[0];
}

export async function registerUser(
  t: TestApp,
  overrides: Partial<{ email: string; password: string; fullName: string; companyName: string }> = {},
  headers: Record<string, string> = {},
): Promise<RegisteredUser> {
  const body = {
    email: uniqueEmail(),
    password: 'correct horse battery',
    fullName: 'Test User',
    companyName: 'Test Company',
    ...overrides,
  };
  const res = await request(t.http).post('/api/auth/register').set(headers).send(body).expect(201);
  const me = await request(t.http)
    .get('/api/me')
    .set('Authorization', `Bearer ${res.body.accessToken}`)
    .expect(200);
  return {
    email: body.email.toLowerCase(),
    password: body.password,
    accessToken: res.body.accessToken as string,
    refreshCookie: cookieFrom(res),
    userId: me.body.user.id as string,
    companyId: me.body.companies[0].id as string,
  };
}

/** The newest mail written to DATA_DIR/mail for an address (SMTP_URL unset in tests). */
export function lastMailTo(t: TestApp, email: string): string | null {
  const dir = join(t.config.dataDir, 'mail');
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.includes(email.replace(/[^\w.@-]/g, '_')))
      .sort();
  } catch {
    return null;
  }
  const last = files.at(-1);
  return last ? readFileSync(join(dir, last), 'utf8') : null;
}

/** The token of the `path?token=` link in the newest mail to an address (throws when there is none). */
export function tokenFromMail(t: TestApp, email: string, path: string): string {
  const mail = lastMailTo(t, email) ?? '';
  const match = new RegExp(`${path}\\?token=([^\\s"&<)]+)`).exec(mail);
  if (!match) throw new Error(`no ${path} link in the last mail to ${email}:\n${mail}`);
  return decodeURIComponent(match[1]);
}
