import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface IdpAccount {
  sub: string;
  email_verified: boolean;
  /** `profile` claims, when the provider knows them. */
  name?: string;
  given_name?: string;
  family_name?: string;
}

export interface TestIdp {
  /** http://127.0.0.1:PORT: the issuer to configure (unless started with another issuerHost). */
  url: string;
  hostPort: string;
  clientId: string;
  clientSecret: string;
  setAccounts(accounts: Record<string, IdpAccount>): Promise<void>;
  /** Signs with a new key from now on; the old one leaves the provider's key set. */
  rotateKeys(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) in a child process, configured like an enterprise IdP:
 * test/oidc-idp.mjs says how. Its own process keeps its ESM dependency tree out of Jest.
 */
export async function startTestIdp(options: {
  redirectUri: string;
  accounts: Record<string, IdpAccount>;
  clientId?: string;
  clientSecret?: string;
  issuerHost?: string;
  port?: number;
}): Promise<TestIdp> {
  const clientId = options.clientId ?? 'switchboard';
  const clientSecret = options.clientSecret ?? `secret-${Math.random().toString(36).slice(2)}`;
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'oidc-idp.mjs')], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      IDP_PORT: String(options.port ?? 0),
      IDP_CONFIG: JSON.stringify({
        clientId,
        clientSecret,
        redirectUri: options.redirectUri,
        accounts: options.accounts,
        issuerHost: options.issuerHost,
      }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`test IdP exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    hostPort: `127.0.0.1:${port}`,
    clientId,
    clientSecret,
    async setAccounts(accounts) {
      const res = await fetch(`${url}/_test/accounts`, { method: 'POST', body: JSON.stringify(accounts) });
      if (res.status !== 204) throw new Error(`setAccounts: ${res.status}`);
    },
    async rotateKeys() {
      const res = await fetch(`${url}/_test/rotate-keys`, { method: 'POST' });
      if (res.status !== 204) throw new Error(`rotateKeys: ${res.status}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Follows the provider's redirects as a browser would (keeping the provider's cookies) from its
 * authorization URL until it sends the browser back to `redirectPrefix`; answers that URL.
 */
export async function followProvider(authorizationUrl: string, redirectPrefix: string): Promise<URL> {
  const jar = new Map<string, string>();
  let next = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (next.startsWith(redirectPrefix)) return new URL(next);
    const res = await fetch(next, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`provider stopped at ${next}: ${res.status} ${await res.text()}`);
    next = new URL(location, next).href;
  }
  throw new Error('too many redirects at the provider');
}
