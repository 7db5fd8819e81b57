import request from 'supertest';
import { cookieFrom, type TestApp, uniqueEmail } from './app.test-util';

let addressCounter = 0;
/**
 * A new client address per call (10.x.y.z), sent as X-Forwarded-For: the test client connects from
 * loopback, which TRUST_PROXY's default trusts, so per-address rate limits do not cap a suite.
 */
export function nextClientAddress(): string {
  addressCounter += 1;
  const n = addressCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export interface Account {
  email: string;
  password: string;
  userId: string;
  /** The company made at registration, where this account is the owner. */
  companyId: string;
  accessToken: string;
  refreshCookie: string;
}

/** A sign-up form's fields for a new address (`prefix` names the address, the person and the company). */
export function registrationBody(prefix = 'sec') {
  return {
    email: uniqueEmail(prefix),
    password: 'correct horse battery',
    fullName: `${prefix} user`,
    companyName: `${prefix} company`,
  };
}

/** Registers through the API (as the sign-up form does), from an address of its own. */
export async function registerAccount(t: TestApp, prefix = 'sec'): Promise<Account> {
  const body = registrationBody(prefix);
  const res = await request(t.http)
    .post('/api/auth/register')
    .set('X-Forwarded-For', nextClientAddress())
    .send(body);
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${JSON.stringify(res.body)}`);
  let accessToken = res.body.accessToken as string | undefined;
  let refreshCookie = accessToken ? cookieFrom(res) : '';
  if (!accessToken) {
    // With email verification on, registration does not sign in: sign in explicitly.
    const login = await request(t.http)
      .post('/api/auth/login')
      .set('X-Forwarded-For', nextClientAddress())
      .send({ email: body.email, password: body.password });
    if (login.status !== 200)
      throw new Error(`login answered ${login.status}: ${JSON.stringify(login.body)}`);
    accessToken = login.body.accessToken as string;
    refreshCookie = cookieFrom(login);
  }
  const me = await request(t.http).get('/api/me').set('Authorization', `Bearer ${accessToken}`).expect(200);
  return {
    email: body.email,
    password: body.password,
    userId: me.body.user.id as string,
    companyId: me.body.companies[0].id as string,
    accessToken,
    refreshCookie,
  };
}

/** Ends the account's session through the API (logout with its refresh cookie); its access token stays signed. */
export async function revokeSession(t: TestApp, account: Account): Promise<void> {
  await request(t.http)
    .post('/api/auth/logout')
    .set('X-Forwarded-For', nextClientAddress())
    .set('Cookie', account.refreshCookie)
    .set('Origin', t.config.appOrigin)
    .expect(204);
  await request(t.http).get('/api/me').set('Authorization', `Bearer ${account.accessToken}`).expect(401);
}

/** A 1×1 PNG: the smallest image the avatar routes accept. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
