import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), 'sb-config-'));

  it('applies the documented defaults and generates the JWT secret once', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.appOrigin).toBe('http://localhost:3000');
    expect(config.processRole).toBe('all');
    expect(config.webhookTimeoutMs).toBe(60000);
    expect(config.google).toBeNull();
    expect(config.logLevel).toBe('info');
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').trim()).toBe(config.jwtSecret);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(config.jwtSecret);
  });

  it('enables Google only with both id and secret, with overridable URLs', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir, GOOGLE_CLIENT_ID: 'id' }).google).toBeNull();
    const google = loadConfig({
      DATA_DIR: dir,
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      GOOGLE_AUTH_URL: 'http://127.0.0.1:9/authorize',
    }).google;
    expect(google?.authUrl).toBe('http://127.0.0.1:9/authorize');
    expect(google?.userInfoUrl).toMatch(/\/userinfo$/);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PROCESS_ROLE: 'boss' }, /PROCESS_ROLE/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET/],
    [{ WEBHOOK_TIMEOUT_MS: '-1' }, /WEBHOOK_TIMEOUT_MS/],
    [{ WORKER_CONCURRENCY: '0' }, /WORKER_CONCURRENCY/],
    [{ WORKER_CONCURRENCY: 'many' }, /WORKER_CONCURRENCY/],
    [{ LOG_LEVEL: 'verbose' }, /LOG_LEVEL must be one of debug, info, warn, error, got "verbose"/],
  ])('refuses %j at boot with a message naming the variable', (env, pattern) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(pattern);
  });

  it('reads WORKER_CONCURRENCY, 1000 by default', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).workerConcurrency).toBe(1000);
    expect(loadConfig({ DATA_DIR: dataDir(), WORKER_CONCURRENCY: '250' }).workerConcurrency).toBe(250);
  });

  it('reads LOG_LEVEL in any case', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), LOG_LEVEL: 'WARN' }).logLevel).toBe('warn');
    expect(loadConfig({ DATA_DIR: dataDir(), LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
  });
});
