import { DataSource } from 'typeorm';
import { uniqueEmail } from '../../test/app.test-util';
import { useServiceContext } from '../../test/service-context';
import { CompanyUserEntity } from '../companies/company-user.entity';
import { InvitationEntity } from './invitation.entity';
import {
  ALREADY_MEMBER,
  EMAIL_MISMATCH,
  INVALID_INVITATION,
  INVITATION_NOT_FOUND,
  InvitationsService,
} from './invitations.service';

/**
 * Invitation rules on InvitationsService. The mailed link, sockets, the sign-up forms and what the
 * request body may hold are in invitations.int-spec.ts.
 */
describe('invitations (InvitationsService on real PostgreSQL, no HTTP)', () => {
  const ctx = useServiceContext();
  let invitations: InvitationsService;
  beforeAll(() => (invitations = ctx.get(InvitationsService)));

  const rows = () => ctx.get(DataSource).getRepository(InvitationEntity);
  const stored = (id: string) => rows().findOneByOrFail({ id });
  const membersOf = async (companyId: string) =>
    (await ctx.get(DataSource).getRepository(CompanyUserEntity).findBy({ companyId })).map((m) => ({
      userId: m.userId,
      role: m.role,
    }));
  const invalid = { code: 'NOT_FOUND', message: INVALID_INVITATION };

  it('refuses a second pending invitation and an address that is already a member', async () => {
    const owner = await ctx.newMember();
    const { email } = await ctx.newInvitation(owner);
    await expect(invitations.create(owner, { email, role: 'user' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This email already has a pending invitation to this company. Resend or delete it instead.',
    });
    const member = await ctx.newUser();
    await ctx.newMembership(owner, member);
    await expect(invitations.create(owner, { email: member.email, role: 'user' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: ALREADY_MEMBER,
    });
    expect((await invitations.list(owner)).map((i) => i.email)).toEqual([email]);
  });

  it('refuses another signed-in address with the spec message, and changes nothing', async () => {
    const owner = await ctx.newMember();
    const someoneElse = await ctx.newUser();
    const { id, token } = await ctx.newInvitation(owner);
    await expect(invitations.accept(someoneElse.userId, token)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: EMAIL_MISMATCH,
    });
    expect((await stored(id)).status).toBe('pending');
    expect((await membersOf(owner.companyId)).map((m) => m.userId)).not.toContain(someoneElse.userId);
    await expect(invitations.lookup(token)).resolves.toMatchObject({ companyId: owner.companyId });
  });

  it("takes the role from the invitation's row, even one edited behind the service's back", async () => {
    const owner = await ctx.newMember();
    const invitee = await ctx.newUser();
    const { id, token } = await ctx.newInvitation(owner, { email: invitee.email, role: 'user' });
    await rows().update(id, { role: 'admin' });
    expect((await invitations.accept(invitee.userId, token)).role).toBe('admin');
    expect(await membersOf(owner.companyId)).toContainEqual({ userId: invitee.userId, role: 'admin' });
  });

  it('expires at the end of its last day: refused, and stored as expired when the list loads', async () => {
    const owner = await ctx.newMember();
    const invitee = await ctx.newUser();
    const { id, token } = await ctx.newInvitation(owner, { email: invitee.email });
    // One second before its end it still works (validity is judged by expires_at alone) ...
    await rows().update(id, { expiresAt: new Date(Date.now() + 1000) });
    await expect(invitations.lookup(token)).resolves.toMatchObject({ email: invitee.email });
    // ... and not at or after it.
    await rows().update(id, { expiresAt: new Date(Date.now() - 1) });
    await expect(invitations.lookup(token)).rejects.toMatchObject(invalid);
    await expect(invitations.accept(invitee.userId, token)).rejects.toMatchObject(invalid);
    expect((await stored(id)).status).toBe('pending'); // refused requests write nothing
    await expect(invitations.link(owner, id)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(invitations.resend(owner, id)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This invitation is expired: only a pending invitation can be resent.',
    });

    const before = ctx.events.toRooms.length;
    expect((await invitations.list(owner)).find((i) => i.id === id)?.status).toBe('expired');
    expect((await stored(id)).status).toBe('expired');
    expect(ctx.events.toRooms.slice(before)).toContainEqual(
      expect.objectContaining({
        event: 'invitation.updated',
        payload: expect.objectContaining({ invitation: expect.objectContaining({ id, status: 'expired' }) }),
      }),
    );
    expect((await membersOf(owner.companyId)).map((m) => m.userId)).not.toContain(invitee.userId);
    // The address can be invited again.
    await ctx.newInvitation(owner, { email: invitee.email });
  });

  it('deletes a pending invitation: its link stops working, managers are told', async () => {
    const owner = await ctx.newMember();
    const invitee = await ctx.newUser();
    const { id, token } = await ctx.newInvitation(owner, { email: invitee.email });
    await invitations.remove(owner, id);
    expect(ctx.events.toRooms.at(-1)).toMatchObject({
      event: 'invitation.deleted',
      payload: { companyId: owner.companyId, invitationId: id },
    });
    await expect(invitations.lookup(token)).rejects.toMatchObject(invalid);
    await expect(invitations.accept(invitee.userId, token)).rejects.toMatchObject(invalid);
    expect((await membersOf(owner.companyId)).map((m) => m.userId)).not.toContain(invitee.userId);
    await expect(invitations.remove(owner, id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: INVITATION_NOT_FOUND,
    });
  });

  it("keeps one company's invitations away from another company's managers", async () => {
    const owner = await ctx.newMember();
    const other = await ctx.newMember();
    const { id } = await ctx.newInvitation(owner);
    const notFound = { code: 'NOT_FOUND', message: INVITATION_NOT_FOUND };
    await expect(invitations.link(other, id)).rejects.toMatchObject(notFound);
    await expect(invitations.remove(other, id)).rejects.toMatchObject(notFound);
    await expect(invitations.resend(other, id)).rejects.toMatchObject(notFound);
    expect(await invitations.list(other)).toEqual([]);
    expect((await stored(id)).status).toBe('pending');
  });

  it('accepts for someone who already is a member without a second membership', async () => {
    const owner = await ctx.newMember();
    const invitee = await ctx.newUser();
    const { id, token } = await ctx.newInvitation(owner, { email: invitee.email, role: 'admin' });
    await ctx.newMembership(owner, invitee, 'user');
    expect((await invitations.accept(invitee.userId, token)).role).toBe('user');
    expect((await membersOf(owner.companyId)).filter((m) => m.userId === invitee.userId)).toEqual([
      { userId: invitee.userId, role: 'user' },
    ]);
    expect((await stored(id)).status).toBe('accepted');
  });

  it('lets managers only invite, list and delete', async () => {
    const owner = await ctx.newMember();
    const member = await ctx.newMembership(owner, await ctx.newUser(), 'user');
    const { id } = await ctx.newInvitation(owner);
    const forbidden = { code: 'FORBIDDEN' };
    await expect(invitations.create(member, { email: uniqueEmail(), role: 'user' })).rejects.toMatchObject(
      forbidden,
    );
    await expect(invitations.list(member)).rejects.toMatchObject(forbidden);
    await expect(invitations.remove(member, id)).rejects.toMatchObject(forbidden);
    expect((await stored(id)).status).toBe('pending');
  });
});
