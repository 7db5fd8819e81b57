import request from 'supertest';
import { createTestApp, registerUser, type TestApp } from '../../test/app.test-util';

/** The readable hint beside the refresh cookie: it lets a signed-out visitor skip a certain-401 probe. */
describe('session hint cookie (real PostgreSQL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const setCookies = (res: request.Response) =>
    (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];

  it('is set with the refresh cookie, readable by the page, and holds no secret', async () => {
    const email = `hint-${Date.now()}@example.com`;
    await registerUser(t, { email, password: 'correct horse battery' });
    const res = await request(t.http)
      .post('/api/auth/login')
      .send({ email, password: 'correct horse battery' })
      .expect(200);
    const hint = setCookies(res).find((c) => c.startsWith('sb_signed_in='));
    expect(hint).toBeDefined();
    expect(hint).toMatch(/^sb_signed_in=1;/);
    expect(hint).toMatch(/Path=\/;/);
    expect(hint).not.toMatch(/HttpOnly/);
    expect(hint).toMatch(/SameSite=Lax/);
  });

  it('is cleared at logout, with the refresh cookie', async () => {
    const user = await registerUser(t);
    const res = await request(t.http).post('/api/auth/logout').set('Cookie', user.refreshCookie).expect(204);
    const cleared = setCookies(res);
    expect(cleared.find((c) => c.startsWith('sb_signed_in=;'))).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(cleared.find((c) => c.startsWith('sb_refresh=;'))).toBeDefined();
  });
});
