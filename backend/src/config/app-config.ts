import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type ProcessRole = 'api' | 'worker' | 'all';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface AppConfig {
  port: number;
  /** HOST: the address to bind; unset → every interface. */
  host: string | undefined;
  appOrigin: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** BullMQ key prefix (BULLMQ_PREFIX): keeps installations or test runs sharing one Redis apart. */
  queuePrefix: string;
  dataDir: string;
  processRole: ProcessRole;
  jwtSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  google: {
    clientId: string;
    clientSecret: string;
    authUrl: string;
    tokenUrl: string;
    userInfoUrl: string;
  } | null;
  webhookAllowedHosts: string[];
  webhookTimeoutMs: number;
  defaultAgentWebhook: string | undefined;
  /** Where the built frontend lives; served at / when present. */
  frontendDist: string;
  /** Express 'trust proxy' (TRUST_PROXY): which proxies' X-Forwarded-For to believe for client addresses. */
  trustProxy: boolean | number | string;
  /** REQUIRE_EMAIL_VERIFICATION: sign-in refused until the emailed verification link is followed. */
  requireEmailVerification: boolean;
  /** RATE_LIMIT_SCALE: multiplies every rate limit (1 in production; test suites raise it). */
  rateLimitScale: number;
  /** METRICS_PORT: Prometheus metrics on their own port; unset → no metrics served (never on PORT). */
  metricsPort: number | undefined;
  /**
   * WORKER_CONCURRENCY: jobs one worker process runs at once (with REDIS_URL), agent calls in flight
   * above all: a call waiting on its agent holds no database connection, only a socket and a few KB.
   */
  workerConcurrency: number;
  /** LOG_LEVEL: the lowest level of the JSON logs written to stdout. */
  logLevel: LogLevel;
  /** The voice provider (ElevenLabs Conversational AI). */
  elevenlabs: {
    /** ELEVENLABS_API_KEY: set → the api issues signed URLs; unset → public agents connect by agent id. */
    apiKey: string | undefined;
    /** ELEVENLABS_API_URL, without a trailing slash. */
    apiUrl: string;
    /** ELEVENLABS_WS_URL, without a trailing slash: the only voice origin the CSP lets the browser reach. */
    wsUrl: string;
  };
  /** Files attached to messages. */
  attachments: {
    /** MAX_ATTACHMENT_MB, in bytes: the largest file one upload may carry. */
    maxBytes: number;
    /** S3_URL: set → the bytes go to that S3-compatible bucket; unset → PostgreSQL. */
    s3Url: string | undefined;
    /** ATTACHMENT_LINK_MINUTES: how long a link given to an agent stays valid. */
    agentLinkMinutes: number;
  };
}

export class ConfigError extends Error {}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

/** Express 'trust proxy': `true`/`false`, a hop count, or addresses and subnet names (`loopback, 10.0.0.0/8`). */
function trustProxyFrom(raw: string | undefined): boolean | number | string {
  const value = raw?.trim() || 'loopback';
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

function boolFrom(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function urlFrom(env: NodeJS.ProcessEnv, name: string, fallback?: string): string | undefined {
  const raw = env[name] || fallback;
  if (!raw) return undefined;
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  return raw;
}

/** ELEVENLABS_WS_URL: a ws: or wss: URL (the browser opens it; the CSP names its origin). */
function wsUrlFrom(env: NodeJS.ProcessEnv): string {
  const raw = (urlFrom(env, 'ELEVENLABS_WS_URL', 'wss://api.elevenlabs.io') as string).replace(/\/+$/, '');
  const protocol = new URL(raw).protocol;
  if (protocol !== 'ws:' && protocol !== 'wss:')
    throw new ConfigError(`ELEVENLABS_WS_URL must be a ws:// or wss:// URL, got "${raw}"`);
  return raw;
}

export function logLevelFrom(raw: string | undefined): LogLevel {
  const value = raw?.trim().toLowerCase() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(value))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return value as LogLevel;
}

/** Reads a secret from DATA_DIR, creating it once so restarts keep sessions valid. */
function persistentSecret(dataDir: string, file: string): string {
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(path, secret + '\n', { mode: 0o600 });
  return secret;
}

/** Validates the environment once at boot into a typed config (the configuration contract in the README's Configuration section). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = intFrom(env, 'PORT', 3000, 1, 65535);
  const dataDir = resolve(env.DATA_DIR || '.data');
  const role = (env.PROCESS_ROLE || 'all') as ProcessRole;
  if (!['api', 'worker', 'all'].includes(role)) {
    throw new ConfigError(`PROCESS_ROLE must be api, worker or all, got "${role}"`);
  }
  const appOrigin = (urlFrom(env, 'APP_ORIGIN', `http://localhost:${port}`) as string).replace(/\/+$/, '');
  const googleId = env.GOOGLE_CLIENT_ID;
  const googleSecret = env.GOOGLE_CLIENT_SECRET;
  const jwtSecret = env.JWT_SECRET || persistentSecret(dataDir, 'jwt-secret');
  if (jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');
  const allowed = (env.WEBHOOK_ALLOWED_HOSTS || '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return {
    port,
    host: env.HOST?.trim() || undefined,
    appOrigin,
    databaseUrl: urlFrom(env, 'DATABASE_URL'),
    redisUrl: urlFrom(env, 'REDIS_URL'),
    queuePrefix: env.BULLMQ_PREFIX || 'bull',
    dataDir,
    processRole: role,
    jwtSecret,
    smtpUrl: urlFrom(env, 'SMTP_URL'),
    mailFrom: env.MAIL_FROM || 'Switchboard <no-reply@switchboard.local>',
    google:
      googleId && googleSecret
        ? {
            clientId: googleId,
            clientSecret: googleSecret,
            authUrl: urlFrom(
              env,
              'GOOGLE_AUTH_URL',
              'https://accounts.google.com/o/oauth2/v2/auth',
            ) as string,
            tokenUrl: urlFrom(env, 'GOOGLE_TOKEN_URL', 'https://oauth2.googleapis.com/token') as string,
            userInfoUrl: urlFrom(
              env,
              'GOOGLE_USERINFO_URL',
              'https://openidconnect.googleapis.com/v1/userinfo',
            ) as string,
          }
        : null,
    webhookAllowedHosts: allowed,
    webhookTimeoutMs: intFrom(env, 'WEBHOOK_TIMEOUT_MS', 60000, 100, 600000),
    defaultAgentWebhook: urlFrom(env, 'DEFAULT_AGENT_WEBHOOK'),
    frontendDist: resolve(__dirname, '..', '..', '..', 'frontend', 'dist'),
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    requireEmailVerification: boolFrom(env, 'REQUIRE_EMAIL_VERIFICATION', false),
    rateLimitScale: intFrom(env, 'RATE_LIMIT_SCALE', 1, 1, 10000),
    metricsPort: env.METRICS_PORT ? intFrom(env, 'METRICS_PORT', 0, 1, 65535) : undefined,
    workerConcurrency: intFrom(env, 'WORKER_CONCURRENCY', 1000, 1, 10000),
    logLevel: logLevelFrom(env.LOG_LEVEL),
    elevenlabs: {
      apiKey: env.ELEVENLABS_API_KEY?.trim() || undefined,
      apiUrl: (urlFrom(env, 'ELEVENLABS_API_URL', 'https://api.elevenlabs.io') as string).replace(/\/+$/, ''),
      wsUrl: wsUrlFrom(env),
    },
    attachments: {
      maxBytes: intFrom(env, 'MAX_ATTACHMENT_MB', 20, 1, 1024) * 1024 * 1024,
      s3Url: env.S3_URL?.trim() || undefined,
      agentLinkMinutes: intFrom(env, 'ATTACHMENT_LINK_MINUTES', 15, 1, 24 * 60),
    },
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
