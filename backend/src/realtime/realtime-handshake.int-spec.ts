import { Logger } from '@nestjs/common';
import { createTestApp, registerUser, type TestApp } from '../../test/app.test-util';
import { connectSocket } from '../../test/realtime.test-util';
import { SessionsService } from '../auth/sessions.service';
import { HANDSHAKE_UNAVAILABLE } from './realtime.gateway';

describe('socket handshake when the server fails', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("logs the failure with the socket's id and tells the client only that the server is unavailable", async () => {
    const user = await registerUser(t);
    const sessions = t.app.get(SessionsService);
    const logged: string[] = [];
    const log = jest
      .spyOn(Logger.prototype, 'error')
      .mockImplementation((message: unknown) => void logged.push(String(message)));
    // The database going away mid-handshake (a driver error that names an address).
    const check = jest
      .spyOn(sessions, 'liveMemberships')
      .mockRejectedValueOnce(new Error('connect ECONNREFUSED 10.9.8.7:5432'));
    try {
      const refused = await connectSocket(t.baseUrl, user.accessToken).then(
        () => null,
        (error: Error) => error,
      );
      expect(refused?.message).toBe(HANDSHAKE_UNAVAILABLE);
      expect(refused?.message).not.toContain('10.9.8.7');
      expect(
        logged.some((line) => /^Socket \S+ handshake failed .*ECONNREFUSED 10\.9\.8\.7/.test(line)),
      ).toBe(true);
    } finally {
      check.mockRestore();
      log.mockRestore();
    }
    // Once the database answers again the same token connects.
    const tab = await connectSocket(t.baseUrl, user.accessToken);
    tab.close();
  });

  it('still refuses a bad token as unauthorized, without logging an error', async () => {
    const log = jest.spyOn(Logger.prototype, 'error');
    try {
      await expect(connectSocket(t.baseUrl, 'nope')).rejects.toThrow('unauthorized');
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });
});
