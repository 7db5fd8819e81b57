import request from 'supertest';
import sharp from 'sharp';
import { createTestApp, lastMailTo, registerUser, type TestApp, uniqueEmail } from '../../test/app.test-util';
import { as } from '../../test/auth';

describe('profile (real PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('saves name and bio', async () => {
    const user = await registerUser(t);
    const res = await request(t.http)
      .patch('/api/me')
      .set(as(user.accessToken))
      .send({ name: 'Grace Brewster Hopper', bio: 'Compilers.' })
      .expect(200);
    expect(res.body).toMatchObject({ firstName: 'Grace', lastName: 'Brewster Hopper', bio: 'Compilers.' });
    const me = await request(t.http).get('/api/me').set(as(user.accessToken)).expect(200);
    expect(me.body.user.name).toBe('Grace Brewster Hopper');
  });

  // The rules (password needed, pending until confirmed) are in users.service.int-spec.ts; this is the
  // way through HTTP and the mails: the link, the sign-ins before and after, the old address told.
  it('changes the email once the new address follows its link', async () => {
    const user = await registerUser(t);
    const other = await registerUser(t);
    const newEmail = uniqueEmail('renamed');
    // A taken address answers like a free one (no enumeration); its owner is told, nothing changes.
    const taken = await request(t.http)
      .patch('/api/me')
      .set(as(user.accessToken))
      .send({ email: other.email, currentPassword: user.password })
      .expect(200);
    expect(taken.body).toMatchObject({ email: user.email, pendingEmail: other.email });
    await t.drain();
    expect(lastMailTo(t, other.email)).toContain('already has an account');

    const ok = await request(t.http)
      .patch('/api/me')
      .set(as(user.accessToken))
      .send({ email: newEmail, currentPassword: user.password })
      .expect(200);
    expect(ok.body).toMatchObject({ email: user.email, pendingEmail: newEmail });
    await t.drain();
    // Not yet: the old address still signs in, the new one does not.
    await request(t.http)
      .post('/api/auth/login')
      .send({ email: newEmail, password: user.password })
      .expect(401);
    const link = /confirm-email\?token=(\S+)/.exec(lastMailTo(t, newEmail) ?? '');
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link![1]);
    const confirmed = await request(t.http).post('/api/auth/confirm-email').send({ token }).expect(200);
    expect(confirmed.body).toEqual({ ok: true, email: newEmail });
    await request(t.http).post('/api/auth/confirm-email').send({ token }).expect(400);
    await request(t.http)
      .post('/api/auth/login')
      .send({ email: newEmail, password: user.password })
      .expect(200);
    const me = await request(t.http).get('/api/me').set(as(user.accessToken)).expect(200);
    expect(me.body.user).toMatchObject({ email: newEmail, pendingEmail: null, emailVerified: true });
    await t.drain();
    expect(lastMailTo(t, user.email)).toContain(`changed to ${newEmail}`);
  });

  it.each([
    [{ name: '   ' }, 'Name is required'],
    [{ name: 7 }, 'Name must be text'],
    [{ email: 'nope' }, 'Please enter a valid email address'],
    [{ bio: 'x'.repeat(2001) }, 'Bio must be at most 2000 characters'],
    [{ isSuperadmin: true }, 'Unknown field "isSuperadmin".'],
  ])('refuses %j with a readable 400', async (body, message) => {
    const user = await registerUser(t);
    const res = await request(t.http).patch('/api/me').set(as(user.accessToken)).send(body).expect(400);
    expect(res.body.message).toBe(message);
  });

  describe('avatar', () => {
    it('re-encodes an uploaded image and serves it with nosniff and a locked-down CSP', async () => {
      const user = await registerUser(t);
      const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#5c6ac4' } })
        .png()
        .toBuffer();
      const res = await request(t.http)
        .post('/api/me/avatar')
        .set(as(user.accessToken))
        .attach('file', png, { filename: 'me.txt', contentType: 'text/plain' })
        .expect(201);
      expect(res.body.avatar).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
      const file = await request(t.http).get(res.body.avatar).expect(200);
      expect(file.headers['content-type']).toBe('image/webp');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['content-security-policy']).toContain("default-src 'none'");
      const meta = await sharp(file.body as Buffer).metadata();
      expect(meta.format).toBe('webp');
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(512);

      // A second upload replaces the first, which is gone.
      const again = await request(t.http)
        .post('/api/me/avatar')
        .set(as(user.accessToken))
        .attach('file', png, 'again.png')
        .expect(201);
      expect(again.body.avatar).not.toBe(res.body.avatar);
      await request(t.http).get(res.body.avatar).expect(404);
    });

    it('judges the content, not the name: an HTML file named .png is refused', async () => {
      const user = await registerUser(t);
      const res = await request(t.http)
        .post('/api/me/avatar')
        .set(as(user.accessToken))
        .attach('file', Buffer.from('<html><script>alert(1)</script></html>'), {
          filename: 'evil.png',
          contentType: 'image/png',
        })
        .expect(400);
      expect(res.body.message).toBe('Invalid file type: Please upload an image file.');
    });

    it('refuses files over 5 MB and requests without a file', async () => {
      const user = await registerUser(t);
      const big = await request(t.http)
        .post('/api/me/avatar')
        .set(as(user.accessToken))
        .attach('file', Buffer.alloc(5 * 1024 * 1024 + 1, 1), 'big.png');
      expect(big.status).toBe(413);
      expect(big.body.message).toBe('File too large: Please upload an image smaller than 5MB.');
      const none = await request(t.http).post('/api/me/avatar').set(as(user.accessToken)).expect(400);
      expect(none.body.message).toBe('Invalid file type: Please upload an image file.');
      const me = await request(t.http).get('/api/me').set(as(user.accessToken)).expect(200);
      expect(me.body.user.avatar).toBe('/placeholder.svg');
    });

    it('answers unknown file ids with 404', async () => {
      await request(t.http).get('/api/files/00000000-0000-4000-8000-000000000000').expect(404);
      await request(t.http).get('/api/files/nope').expect(404);
    });
  });
});
