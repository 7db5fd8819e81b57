import request from 'supertest';
import { cookieFrom, createTestApp, registerUser, uniqueEmail, type TestApp } from '../../test/app.test-util';
import { invite } from '../../test/invitations.test-util';

/**
 * Every answer that carries a token (an access token in the body, a refresh token
 * in a cookie) tells caches, the browser's and any proxy's, not to keep it.
 */
describe('answers carrying tokens are not cached (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  function expectNoStore(res: request.Response, what: string): void {
    expect({ what, cacheControl: res.headers['cache-control'], pragma: res.headers['pragma'] }).toEqual({
      what,
      cacheControl: 'no-store',
      pragma: 'no-cache',
    });
  }

  it('register, login, refresh, session, password change and invited registration say no-store', async () => {
    const email = uniqueEmail('nostore');
    const password = 'correct horse battery';
    const registered = await request(t.http)
      .post('/api/auth/register')
      .send({ email, password, fullName: 'No Store', companyName: 'No Store Inc' })
      .expect(201);
    expect(registered.body.accessToken).toEqual(expect.any(String));
    expectNoStore(registered, 'POST /api/auth/register');

    const login = await request(t.http).post('/api/auth/login').send({ email, password }).expect(200);
    expectNoStore(login, 'POST /api/auth/login');

    const refreshed = await request(t.http)
      .post('/api/auth/refresh')
      .set('Cookie', cookieFrom(login))
      .expect(200);
    expect(refreshed.body.accessToken).toEqual(expect.any(String));
    expectNoStore(refreshed, 'POST /api/auth/refresh');

    const session = await request(t.http)
      .post('/api/auth/session')
      .set('Cookie', cookieFrom(refreshed))
      .expect(200);
    expect(session.body.accessToken).toEqual(expect.any(String));
    expectNoStore(session, 'POST /api/auth/session');

    const changed = await request(t.http)
      .post('/api/me/password')
      .set('Authorization', `Bearer ${session.body.accessToken as string}`)
      .send({ currentPassword: password, newPassword: 'another long password' })
      .expect(200);
    expect(changed.body.accessToken).toEqual(expect.any(String));
    expectNoStore(changed, 'POST /api/me/password');

    const owner = await registerUser(t);
    const { token } = await invite(t, owner, owner.companyId, uniqueEmail('invited'));
    const invited = await request(t.http)
      .post('/api/auth/register-invited')
      .send({ token, firstName: 'In', lastName: 'Vited', password })
      .expect(201);
    expect(invited.body.accessToken).toEqual(expect.any(String));
    expectNoStore(invited, 'POST /api/auth/register-invited');
  });

  it('a refused refresh, which clears the cookies, is not cached either', async () => {
    const res = await request(t.http).post('/api/auth/refresh').set('Cookie', 'sb_refresh=x.y').expect(401);
    expectNoStore(res, 'POST /api/auth/refresh (refused)');
  });
});
