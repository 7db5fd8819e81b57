import request from 'supertest';
import { as } from './auth';
import { cookieFrom, type TestApp, tokenFromMail, uniqueEmail } from './app.test-util';
import { type Account, nextClientAddress } from './identities.test-util';

export function tokenOf(link: string): string {
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/**
 * The token of the invitation link mailed to an address (the mail's own token, which proves the mailbox;
 * managers see another one). Waits for the queued mail to be written.
 */
export async function mailedInvitationToken(t: TestApp, email: string): Promise<string> {
  await t.drain();
  return tokenFromMail(t, email.toLowerCase(), '/invitation');
}

/** A manager invites an address; the answer's invitation and link. */
export async function invite(
  t: TestApp,
  manager: Account,
  companyId: string,
  email: string,
  role: 'admin' | 'user' = 'user',
): Promise<{ id: string; link: string; token: string; expiresAt: string; createdAt: string }> {
  const res = await request(t.http)
    .post('/api/company/invitations')
    .set(as(manager, companyId))
    .send({ email, role });
  if (res.status !== 201) throw new Error(`invite answered ${res.status}: ${JSON.stringify(res.body)}`);
  const link = res.body.link as string;
  return {
    id: res.body.invitation.id as string,
    link,
    token: tokenOf(link),
    expiresAt: res.body.invitation.expiresAt as string,
    createdAt: res.body.invitation.createdAt as string,
  };
}

/** Someone new joins the company the way people do: an invitation, then the invited sign-up. */
export async function joinAsNewMember(
  t: TestApp,
  manager: Account,
  companyId: string,
  role: 'admin' | 'user' = 'user',
  names: { firstName: string; lastName: string } = { firstName: 'Invited', lastName: 'Member' },
): Promise<Account> {
  const email = uniqueEmail('invited');
  const { token } = await invite(t, manager, companyId, email, role);
  const res = await request(t.http)
    .post('/api/auth/register-invited')
    .set('X-Forwarded-For', nextClientAddress())
    .send({ token, ...names, password: 'correct horse battery' });
  if (res.status !== 201)
    throw new Error(`register-invited answered ${res.status}: ${JSON.stringify(res.body)}`);
  return {
    email,
    password: 'correct horse battery',
    userId: res.body.user.id as string,
    companyId,
    accessToken: res.body.accessToken as string,
    refreshCookie: cookieFrom(res),
  };
}
