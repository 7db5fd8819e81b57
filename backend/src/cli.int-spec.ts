import request from 'supertest';
import { createTestApp, registerUser, testDatabaseUrl, uniqueEmail } from '../test/app.test-util';
import { promoteToSuperadmin } from './cli';

describe('npm run cli -- promote EMAIL', () => {
  it('makes an existing account a superadmin, and says so only for an existing one', async () => {
    const t = await createTestApp();
    try {
      await registerUser(t); // whoever came first in this database is a superadmin already
      const user = await registerUser(t);
      const before = await request(t.http).get('/api/me').set('Authorization', `Bearer ${user.accessToken}`);
      expect(before.body.user.isSuperadmin).toBe(false);
      expect(await promoteToSuperadmin(testDatabaseUrl(), user.email.toUpperCase())).toBe(true);
      const after = await request(t.http).get('/api/me').set('Authorization', `Bearer ${user.accessToken}`);
      expect(after.body.user.isSuperadmin).toBe(true);
      expect(await promoteToSuperadmin(testDatabaseUrl(), uniqueEmail('nobody'))).toBe(false);
    } finally {
      await t.close();
    }
  });
});
