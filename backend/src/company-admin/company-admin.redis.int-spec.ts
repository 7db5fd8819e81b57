import { Redis } from 'ioredis';
import request from 'supertest';
import { createTestApp, type TestApp, uniqueEmail } from '../../test/app.test-util';
import { type Account, registerAccount } from '../../test/identities.test-util';
import { as } from '../../test/auth';
import { invite, joinAsNewMember } from '../../test/invitations.test-util';
import { type EventLog, useSockets, companyRoomsOf } from '../../test/realtime.test-util';
import { RedisEmitterPublisher } from '../realtime/publishers';

const redisUrl = process.env.REDIS_URL;
// CI always sets REDIS_URL (.ci/run starts Redis).
const describeWithRedis = redisUrl ? describe : describe.skip;

describeWithRedis(
  'membership changes reach sockets on every api node, and from a worker, through Redis',
  () => {
    const prefix = `sbadmin${process.pid}${Date.now()}`;
    let nodeA: TestApp;
    let nodeB: TestApp;
    let owner: Account;
    const openSocket = useSockets();

    beforeAll(async () => {
      const env = { REDIS_URL: redisUrl, BULLMQ_PREFIX: prefix, PROCESS_ROLE: 'api' };
      nodeA = await createTestApp(env);
      nodeB = await createTestApp(env);
    });
    beforeEach(async () => {
      owner = await registerAccount(nodeA, 'redis-owner');
    });
    afterAll(async () => {
      await nodeA?.close();
      await nodeB?.close();
      const redis = new Redis(redisUrl as string);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    });

    const onNodeB = (account: Account) => openSocket(nodeB.baseUrl, account.accessToken);
    const roomsOnB = (log: EventLog): string[] => companyRoomsOf(nodeB.app, log);
    const eventually = async (check: () => boolean) => {
      const deadline = Date.now() + 5000;
      while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(check()).toBe(true);
    };

    it('a role change and a removal made on node A move the member’s sockets on node B', async () => {
      const member = await joinAsNewMember(nodeA, owner, owner.companyId);
      const tab = await onNodeB(member);
      const company = `company:${owner.companyId}`;
      expect(roomsOnB(tab)).toEqual([company]);

      await request(nodeA.http)
        .patch(`/api/company/members/${member.userId}`)
        .set(as(owner, owner.companyId))
        .send({ role: 'admin' })
        .expect(200);
      await tab.waitFor('member.updated');
      await eventually(() => roomsOnB(tab).includes(`${company}:managers`));
      const sent = await invite(nodeA, owner, owner.companyId, uniqueEmail('redis'));
      await tab.waitFor<{ invitation: { id: string } }>(
        'invitation.created',
        (p) => p.invitation.id === sent.id,
      );

      await request(nodeA.http)
        .delete(`/api/company/members/${member.userId}`)
        .set(as(owner, owner.companyId))
        .expect(204);
      await tab.waitFor('member.removed');
      await eventually(() => roomsOnB(tab).length === 0);
    });

    it('a worker (Redis emitter) moves a user’s sockets between rooms and emits to them', async () => {
      const tab = await onNodeB(owner);
      const worker = new RedisEmitterPublisher(redisUrl as string);
      const room = `company:${owner.companyId}:managers`;
      try {
        worker.leaveRooms(owner.userId, [room]);
        await eventually(() => !roomsOnB(tab).includes(room));
        worker.joinRooms(owner.userId, [room]);
        await eventually(() => roomsOnB(tab).includes(room));
        worker.toCompanyManagers(owner.companyId, 'member.removed', {
          companyId: owner.companyId,
          userId: 'x',
        });
        expect(await tab.waitFor('member.removed')).toEqual({ companyId: owner.companyId, userId: 'x' });
      } finally {
        await worker.onModuleDestroy();
      }
    });
  },
);
