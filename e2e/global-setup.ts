import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startAgentWebhook } from './fixtures/agent-webhook';
import { startApp } from './fixtures/app-server';
import { FAKE_CONVAI_API_KEY, startFakeConvai } from './fixtures/fake-convai';
import { FAKE_GOOGLE_CLIENT_ID, FAKE_GOOGLE_CLIENT_SECRET, startFakeGoogle } from './fixtures/fake-google';
import { startE2eIdp } from './fixtures/oidc-idp';
import { startSmtpSink } from './fixtures/smtp-sink';
import { APP_PORT, BASE_URL } from './playwright.config';

/** Settings of the configuration contract (README.md, Configuration) that must not leak from the caller's shell. */
const CONTRACT_VARIABLES = [
  'PORT',
  'APP_ORIGIN',
  'DATABASE_URL',
  'REDIS_URL',
  'DATA_DIR',
  'PROCESS_ROLE',
  'JWT_SECRET',
  'SMTP_URL',
  'MAIL_FROM',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'GOOGLE_AUTH_URL',
  'GOOGLE_TOKEN_URL',
  'GOOGLE_USERINFO_URL',
  'ELEVENLABS_API_KEY',
  'ELEVENLABS_API_URL',
  'ELEVENLABS_WS_URL',
  'WEBHOOK_ALLOWED_HOSTS',
  'WEBHOOK_TIMEOUT_MS',
  'DEFAULT_AGENT_WEBHOOK',
];

/**
 * Starts what the browser tests talk to: a local SMTP sink (reset mails are read from files), a fake
 * Google OAuth server, a local agent webhook (fixtures/agent-webhook.ts), and the built app run the way `npm start` runs it, on the embedded PostgreSQL in a
 * fresh DATA_DIR. Returns the teardown.
 */
export default async function globalSetup(config: FullConfig) {
  const repoRoot = path.resolve(__dirname, '..');
  const outputDir = config.projects[0]?.outputDir ?? path.join(__dirname, 'test-results');
  const logDir = path.join(outputDir, 'server-logs');
  const mailDir = path.join(outputDir, 'mail');
  fs.mkdirSync(logDir, { recursive: true });

  // The embedded cluster runs as the `postgres` user when we are root: the folder must be reachable.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-e2e-'));
  fs.chmodSync(dataDir, 0o755);

  const googleLog = fs.createWriteStream(path.join(logDir, 'fake-google.log'));
  const smtp = await startSmtpSink(mailDir);
  const google = await startFakeGoogle((line) => googleLog.write(`${new Date().toISOString()} ${line}\n`));
  const webhookLog = fs.createWriteStream(path.join(logDir, 'agent-webhook.log'));
  const agentWebhook = await startAgentWebhook((line) =>
    webhookLog.write(`${new Date().toISOString()} ${line}\n`),
  );
  const convaiLog = fs.createWriteStream(path.join(logDir, 'fake-convai.log'));
  const convai = await startFakeConvai((line) => convaiLog.write(`${new Date().toISOString()} ${line}\n`));
  const idpLog = fs.createWriteStream(path.join(logDir, 'oidc-idp.log'));
  const idp = await startE2eIdp(`${BASE_URL}/api/auth/sso/callback`, (line) =>
    idpLog.write(`${new Date().toISOString()} ${line}\n`),
  );

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONTRACT_VARIABLES) delete env[name];
  Object.assign(env, {
    PORT: String(APP_PORT),
    APP_ORIGIN: BASE_URL,
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Switchboard <no-reply@switchboard.test>',
    GOOGLE_CLIENT_ID: FAKE_GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: FAKE_GOOGLE_CLIENT_SECRET,
    GOOGLE_AUTH_URL: `${google.url}/authorize`,
    GOOGLE_TOKEN_URL: `${google.url}/token`,
    GOOGLE_USERINFO_URL: `${google.url}/userinfo`,
    // Agents may call the local webhook fixture (the SSRF guard refuses loopback otherwise).
    // ... and Acme's identity provider (single sign-on's discovery goes through the same guard).
    WEBHOOK_ALLOWED_HOSTS: `${agentWebhook.host},${idp.host}`,
    // Voice calls go to the local fake of ElevenLabs (signed URLs: the api holds this key).
    ELEVENLABS_API_KEY: FAKE_CONVAI_API_KEY,
    ELEVENLABS_API_URL: convai.apiUrl,
    ELEVENLABS_WS_URL: convai.wsUrl,
    // Every test signs up from 127.0.0.1: one address would reach the per-address limits.
    RATE_LIMIT_SCALE: '50',
    // Small, so that a file over the limit is quick to make (and the message box must learn it).
    MAX_ATTACHMENT_MB: '2',
  });

  const started = Date.now();
  let app;
  try {
    app = await startApp({
      repoRoot,
      env,
      baseUrl: BASE_URL,
      logFile: path.join(logDir, 'app.log'),
      dataDir,
    });
  } catch (error) {
    await Promise.all([smtp.close(), google.close(), agentWebhook.close(), convai.close(), idp.close()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  process.stderr.write(
    `[e2e] app healthy at ${BASE_URL} after ${Date.now() - started} ms (DATA_DIR ${dataDir})\n`,
  );

  // Read by the test workers (spawned after this) through fixtures/mailbox.ts.
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_FAKE_GOOGLE_URL = google.url;
  process.env.E2E_AGENT_WEBHOOK_URL = agentWebhook.url;
  process.env.E2E_FAKE_CONVAI_URL = convai.apiUrl;
  process.env.E2E_IDP_URL = idp.url;
  // fixtures/superadmin.ts promotes accounts with the operator CLI, which finds the database here.
  process.env.E2E_DATA_DIR = dataDir;

  return async () => {
    // Held replies answer now, so the app's shutdown does not wait on our webhook.
    agentWebhook.releaseAll();
    await app.stop();
    await Promise.all([smtp.close(), google.close(), agentWebhook.close(), convai.close(), idp.close()]);
    googleLog.end();
    idpLog.end();
    webhookLog.end();
    convaiLog.end();
    if (process.env.E2E_KEEP_DATA === '1') {
      process.stderr.write(`[e2e] kept DATA_DIR ${dataDir}\n`);
    } else {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
}
