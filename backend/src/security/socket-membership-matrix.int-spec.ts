import request from 'supertest';
import { createTestApp, type TestApp, uniqueEmail } from '../../test/app.test-util';
import {
  type Account,
  nextClientAddress,
  registerAccount,
  revokeSession,
} from '../../test/identities.test-util';
import { as } from '../../test/auth';
import { newChat, setSuperadmin } from '../../test/factories';
import { joinAsNewMember } from '../../test/invitations.test-util';
import { type EventLog, useSockets } from '../../test/realtime.test-util';
import type { BootstrapResponse } from '../contracts/bootstrap';
import { companyManagersRoom, companyRoom } from '../realtime/realtime-publisher';
import { SocketServerRef } from '../realtime/socket-server.ref';

/**
 * The socket side of the authorization matrix: for each way a member loses
 * access × the state of their socket when it happens, the company events that may still reach that
 * socket: none. "Recovered" is a real client whose transport dropped before the change and that
 * reconnects afterwards with the Socket.IO session id and offset it had (what connection state recovery
 * restores rooms and missed packets from); company events are sent both while it is away and after.
 */
type Change = 'removed' | 'demoted' | 'must use SSO' | 'company deleted' | 'account disabled' | 'signed out';
type SocketState = 'connected' | 'disconnected, then recovered';

/** What the member may still receive about the company after the change, besides being told of it. */
const STILL_ALLOWED: Record<Change, readonly string[]> = {
  removed: [],
  // Still a member: company-wide events go on; the managers' (invitations, member changes) stop.
  demoted: ['company.updated'],
  // Still a member, but the company requires single sign-on and this session was made with a password.
  'must use SSO': [],
  'company deleted': [],
  'account disabled': [],
  'signed out': [],
};
/** The change's own notice to the member, allowed whatever else is refused. */
const NOTICE: Record<Change, readonly string[]> = {
  removed: ['member.removed'],
  demoted: ['member.updated'],
  'must use SSO': ['company.sso_required'],
  'company deleted': ['company.deleted'],
  'account disabled': ['session.revoked'],
  'signed out': ['session.revoked'],
};
const ENDS_SESSION: ReadonlySet<Change> = new Set(['account disabled', 'signed out']);

const CHANGES: Change[] = [
  'removed',
  'demoted',
  'must use SSO',
  'company deleted',
  'account disabled',
  'signed out',
];
const STATES: SocketState[] = ['connected', 'disconnected, then recovered'];

describe('socket membership matrix (membership change × socket state: no company event after it)', () => {
  let t: TestApp;
  let superadmin: Account;
  const openSocket = useSockets();

  beforeAll(async () => {
    t = await createTestApp();
    superadmin = await registerAccount(t, 'sock-super');
    await setSuperadmin(t.app, superadmin.userId);
  });
  afterAll(async () => {
    await t?.close();
  });

  const socketOf = (account: Account) => openSocket(t.baseUrl, account.accessToken);

  async function apply(change: Change, owner: Account, member: Account): Promise<void> {
    const send = (req: request.Test, status: number) =>
      req.set('X-Forwarded-For', nextClientAddress()).expect(status);
    switch (change) {
      case 'removed':
        await send(
          request(t.http).delete(`/api/company/members/${member.userId}`).set(as(owner, owner.companyId)),
          204,
        );
        return;
      case 'demoted':
        await send(
          request(t.http)
            .patch(`/api/company/members/${member.userId}`)
            .set(as(owner, owner.companyId))
            .send({ role: 'user' }),
          200,
        );
        return;
      case 'must use SSO':
        await send(
          request(t.http).put('/api/company/sso').set(as(owner, owner.companyId)).send({
            enabled: true,
            issuer: 'https://login.example.com',
            clientId: 'switchboard',
            clientSecret: 'secret',
            requireSso: true,
            autoJoin: false,
          }),
          200,
        );
        return;
      case 'company deleted':
        await send(
          request(t.http).delete(`/api/admin/companies/${owner.companyId}`).set(as(superadmin, null)),
          204,
        );
        return;
      case 'account disabled':
        await send(
          request(t.http)
            .patch(`/api/admin/users/${member.userId}`)
            .set(as(superadmin, null))
            .send({ disabled: true }),
          200,
        );
        return;
      case 'signed out':
        await revokeSession(t, member);
        return;
    }
  }

  /**
   * The owner makes the company's usual events (an invitation for its managers, a rename for every
   * member) and waits until their own socket has them: by then they have gone out to every room.
   */
  async function companyEvents(owner: Account, ownerSocket: EventLog, label: string): Promise<void> {
    const invitee = uniqueEmail(`sock-${label}`);
    const invited = await request(t.http)
      .post('/api/company/invitations')
      .set(as(owner, owner.companyId))
      .send({ email: invitee, role: 'admin' });
    expect(invited.status).toBe(201);
    const name = `renamed ${label} ${Date.now()}`;
    await request(t.http).patch('/api/company').set(as(owner, owner.companyId)).send({ name }).expect(200);
    await ownerSocket.waitFor<{ invitation: { email: string } }>(
      'invitation.created',
      (p) => p.invitation.email === invitee,
    );
    await ownerSocket.waitFor<{ name: string }>('company.updated', (p) => p.name === name);
  }

  /** The company's rooms on the server, and whether this socket (by id) is in them. */
  async function inCompanyRooms(companyId: string, socketId: string | undefined): Promise<string[]> {
    const server = t.app.get(SocketServerRef).server;
    if (!server || !socketId) return [];
    const found: string[] = [];
    for (const room of [companyRoom(companyId), companyManagersRoom(companyId)]) {
      const inRoom = await server.in(room).fetchSockets();
      if (inRoom.some((s) => s.id === socketId)) found.push(room);
    }
    return found;
  }

  for (const change of CHANGES) {
    for (const state of STATES) {
      it(`${change} × ${state}`, async () => {
        const owner = await registerAccount(t, 'sock-owner');
        const member = await joinAsNewMember(t, owner, owner.companyId, 'admin');
        const ownerSocket = await socketOf(owner);
        const memberSocket = await socketOf(member);
        // A first company event: the member gets it (an admin of the company), and its client now has
        // the offset that a recovery would start from.
        await companyEvents(owner, ownerSocket, 'before');
        await memberSocket.waitFor('invitation.created');
        expect(await inCompanyRooms(owner.companyId, memberSocket.socket.id)).toHaveLength(2);

        // Raw frames too: a client holds events that come before its CONNECT answer and drops them when
        // the connection is refused, but they did reach it (missed packets replayed before
        // the session check).
        const frames: string[] = [];
        memberSocket.socket.io.on('packet', (packet: { type: number; data?: unknown }) => {
          if (packet.type === 2 && Array.isArray(packet.data)) frames.push(String(packet.data[0]));
        });
        let reconnected: Promise<string> | null = null;
        if (state === 'disconnected, then recovered') {
          memberSocket.socket.io.reconnection(false);
          const down = new Promise((resolve) => memberSocket.socket.once('disconnect', resolve));
          memberSocket.socket.io.engine.close(); // the transport drops, as on a flaky network
          await down;
        }
        const from = memberSocket.events.length;
        await apply(change, owner, member);
        if (change !== 'company deleted') await companyEvents(owner, ownerSocket, 'while-away');

        if (state === 'disconnected, then recovered') {
          reconnected = new Promise<string>((resolve) => {
            memberSocket.socket.once('connect', () => resolve('connected'));
            memberSocket.socket.once('connect_error', (error) => resolve(error.message));
          });
          // The client's CONNECT carries the pid and offset it had: a recovery request.
          memberSocket.socket.connect();
          expect(await reconnected).toBe(ENDS_SESSION.has(change) ? 'unauthorized' : 'connected');
          // The server rechecks rooms right after joining: let that settle.
          await new Promise((r) => setTimeout(r, 100));
        }
        if (change !== 'company deleted') await companyEvents(owner, ownerSocket, 'after');
        await new Promise((r) => setTimeout(r, 100));

        const allowed = new Set([...STILL_ALLOWED[change], ...NOTICE[change]]);
        const leaked = memberSocket.events.slice(from).filter((e) => !allowed.has(e.event));
        expect(leaked).toEqual([]);
        expect(frames.filter((event) => !allowed.has(event))).toEqual([]);
        if (ENDS_SESSION.has(change)) {
          expect(memberSocket.socket.connected).toBe(false);
        } else {
          const rooms = await inCompanyRooms(owner.companyId, memberSocket.socket.id);
          expect(rooms).toEqual(change === 'demoted' ? [companyRoom(owner.companyId)] : []);
        }
        if (change === 'must use SSO') {
          // Its screen is told, live or on the reconnect.
          const told = memberSocket.events
            .slice(from)
            .filter((e) => e.event === 'company.sso_required')
            .map((e) => e.payload);
          expect(told).toContainEqual({ companyId: owner.companyId, required: true });
        }
        if (change === 'demoted') {
          // Still a member: the rename after the change reached them.
          expect(memberSocket.events.slice(from).some((e) => e.event === 'company.updated')).toBe(true);
        }
      });
    }
  }

  it('a socket whose handshake read its rooms before a removal committed does not keep them', async () => {
    const owner = await registerAccount(t, 'sock-race');
    const member = await joinAsNewMember(t, owner, owner.companyId, 'admin');
    const ownerSocket = await socketOf(owner);
    // Connect and remove at the same moment, many times: whichever order they commit in, the member's
    // socket must end outside the company's rooms.
    const [memberSocket] = await Promise.all([
      socketOf(member),
      request(t.http)
        .delete(`/api/company/members/${member.userId}`)
        .set(as(owner, owner.companyId))
        .expect(204),
    ]);
    await new Promise((r) => setTimeout(r, 150));
    expect(await inCompanyRooms(owner.companyId, memberSocket.socket.id)).toEqual([]);
    const from = memberSocket.events.length;
    await companyEvents(owner, ownerSocket, 'race');
    await new Promise((r) => setTimeout(r, 100));
    expect(memberSocket.events.slice(from)).toEqual([]);
  });

  it("a removed member's first socket, with the company's markers in its handshake, is told nothing of it", async () => {
    const owner = await registerAccount(t, 'sock-markers');
    const member = await joinAsNewMember(t, owner, owner.companyId, 'user');
    const page = await request(t.http)
      .get(`/api/bootstrap?chat=true&companyId=${owner.companyId}`)
      .set(as(member, null))
      .expect(200);
    const { chat } = page.body as BootstrapResponse;
    expect(chat?.companyId).toBe(owner.companyId);
    await request(t.http)
      .delete(`/api/company/members/${member.userId}`)
      .set(as(owner, owner.companyId))
      .expect(204);
    // Rows of theirs in that company that would change the version, were it still read for them.
    await newChat(t.app, { userId: member.userId, companyId: owner.companyId });
    const memberSocket = await openSocket(t.baseUrl, member.accessToken, {
      markers: { chat: { companyId: owner.companyId, version: chat?.version } },
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(memberSocket.events).toEqual([]);
  });

  it('ids in capitals name the same company and member: events reach its rooms, a removal empties them', async () => {
    const owner = await registerAccount(t, 'sock-caps');
    const member = await joinAsNewMember(t, owner, owner.companyId, 'admin');
    const memberSocket = await socketOf(member);
    const shouting = { ...as(owner, null), 'X-Company-Id': owner.companyId.toUpperCase() };
    const name = `caps ${Date.now()}`;
    await request(t.http).patch('/api/company').set(shouting).send({ name }).expect(200);
    await memberSocket.waitFor<{ companyId: string; name: string }>(
      'company.updated',
      (p) => p.name === name && p.companyId === owner.companyId,
    );
    await request(t.http)
      .delete(`/api/company/members/${member.userId.toUpperCase()}`)
      .set(shouting)
      .expect(204);
    await memberSocket.waitFor<{ companyId: string }>(
      'member.removed',
      (p) => p.companyId === owner.companyId,
    );
    expect(await inCompanyRooms(owner.companyId, memberSocket.socket.id)).toEqual([]);
  });
});
