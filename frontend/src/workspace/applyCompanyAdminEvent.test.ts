import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InvitationView, MemberView } from '../api/contracts';
import { useSessionStore } from '../stores/sessionStore';
import { useCompanyAdminStore } from '../stores/companyAdminStore';
import { useCompanyStore } from '../stores/companyStore';
import { userView } from '../test/fixtures';
import { describeOwnMembershipChange } from './applyCompanyAdminEvent';
import { dispatch, fetchAndApply } from '../sync/dispatch';

const invitation = (overrides: Partial<InvitationView> = {}): InvitationView => ({
  id: 'i1',
  companyId: 'c1',
  email: 'grace@example.com',
  role: 'user',
  status: 'pending',
  invitedBy: { id: 'u1', name: 'Ada Lovelace' },
  expiresAt: '2030-01-01T23:59:59.999Z',
  createdAt: '2029-12-02T10:00:00.000Z',
  ...overrides,
});

const member = (overrides: Partial<MemberView> = {}): MemberView => ({
  userId: 'u2',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  avatar: '/placeholder.svg',
  role: 'user',
  joinedAt: '2029-12-03T10:00:00.000Z',
  ...overrides,
});

describe('realtime dispatch: invitations, members and companies', () => {
  beforeEach(() => {
    useSessionStore.setState({ status: 'authenticated', user: userView({ id: 'u1' }) });
    useCompanyStore.getState().setCompanies([
      { id: 'c1', name: 'First', role: 'owner', createdAt: '2024-01-01T00:00:00Z' },
      { id: 'c2', name: 'Second', role: 'admin', createdAt: '2024-01-01T00:00:00Z' },
    ]);
    useCompanyStore.getState().setCurrentCompany('c1');
    useCompanyAdminStore.getState().reset('c1');
    useCompanyAdminStore.getState().setInvitations([]);
    useCompanyAdminStore.getState().setMembers([member({ userId: 'u1', name: 'Ada', role: 'owner' })]);
  });
  afterEach(() => {
    useCompanyStore.getState().reset();
    useCompanyAdminStore.getState().reset(null);
    useSessionStore.setState({ status: 'idle', user: null });
  });

  it('shows an invitation created, flips it to accepted and removes a deleted one', () => {
    dispatch({ name: 'invitation.created', payload: { companyId: 'c1', invitation: invitation() } });
    dispatch({ name: 'invitation.created', payload: { companyId: 'c1', invitation: invitation() } });
    expect(useCompanyAdminStore.getState().invitations.items).toHaveLength(1);

    dispatch({
      name: 'invitation.updated',
      payload: { companyId: 'c1', invitation: invitation({ status: 'accepted' }) },
    });
    expect(useCompanyAdminStore.getState().invitations.items[0]?.status).toBe('accepted');

    dispatch({ name: 'invitation.deleted', payload: { companyId: 'c1', invitationId: 'i1' } });
    expect(useCompanyAdminStore.getState().invitations.items).toHaveLength(0);
  });

  it('ignores admin events of a company whose lists are not on screen', () => {
    dispatch({
      name: 'invitation.created',
      payload: { companyId: 'c2', invitation: invitation({ companyId: 'c2' }) },
    });
    dispatch({ name: 'member.joined', payload: { companyId: 'c2', member: member() } });
    expect(useCompanyAdminStore.getState().invitations.items).toHaveLength(0);
    expect(useCompanyAdminStore.getState().members.items).toHaveLength(1);
  });

  it('adds a member who joined, changes their role and removes them', () => {
    dispatch({ name: 'member.joined', payload: { companyId: 'c1', member: member() } });
    dispatch({ name: 'member.updated', payload: { companyId: 'c1', member: member({ role: 'admin' }) } });
    expect(useCompanyAdminStore.getState().members.items.find((m) => m.userId === 'u2')?.role).toBe('admin');
    dispatch({ name: 'member.removed', payload: { companyId: 'c1', userId: 'u2' } });
    expect(useCompanyAdminStore.getState().members.items.map((m) => m.userId)).toEqual(['u1']);
  });

  it('does not let a list read before a member joined hide them', async () => {
    let answer: (members: MemberView[]) => void = () => undefined;
    const loading = fetchAndApply(
      () => new Promise<MemberView[]>((resolve) => (answer = resolve)),
      (members) => useCompanyAdminStore.getState().setMembers(members),
    );
    dispatch({ name: 'member.joined', payload: { companyId: 'c1', member: member() } });
    answer([member({ userId: 'u1', name: 'Ada', role: 'owner' })]);
    await loading;
    expect(useCompanyAdminStore.getState().members.items.map((m) => m.userId)).toEqual(['u1', 'u2']);
  });

  it('renames a company of the user, current or not', () => {
    dispatch({ name: 'company.updated', payload: { companyId: 'c2', name: 'Second Renamed' } });
    expect(useCompanyStore.getState().companies.find((c) => c.id === 'c2')?.name).toBe('Second Renamed');
  });

  it("changes the user's own role when they are the member updated (the menu follows)", () => {
    dispatch({
      name: 'member.updated',
      payload: { companyId: 'c2', member: member({ userId: 'u1', role: 'user' }) },
    });
    expect(useCompanyStore.getState().companies.find((c) => c.id === 'c2')?.role).toBe('user');
    dispatch({ name: 'member.updated', payload: { companyId: 'c1', member: member({ role: 'admin' }) } });
    expect(useCompanyStore.getState().companies.find((c) => c.id === 'c1')?.role).toBe('owner');
  });

  it('takes away the current company when the user is removed from it, switching to another of theirs', () => {
    const event = { name: 'member.removed', payload: { companyId: 'c1', userId: 'u1' } } as const;
    expect(describeOwnMembershipChange(event)).toEqual({
      title: 'Removed from company',
      description: 'You are no longer a member of First. You are now viewing Second.',
    });
    dispatch(event);
    const state = useCompanyStore.getState();
    expect(state.companies.map((c) => c.id)).toEqual(['c2']);
    expect(state.currentCompanyId).toBe('c2');
    expect(localStorage.getItem('currentCompanyId')).toBe('c2');
  });

  it('drops a deleted company and switches every member of it to another company of theirs', () => {
    const event = { name: 'company.deleted', payload: { companyId: 'c1' } } as const;
    expect(describeOwnMembershipChange(event)).toEqual({
      title: 'Company deleted',
      description: 'First was deleted by a platform administrator. You are now viewing Second.',
    });
    dispatch(event);
    const state = useCompanyStore.getState();
    expect(state.companies.map((c) => c.id)).toEqual(['c2']);
    expect(state.currentCompanyId).toBe('c2');
    // Again (another tab's copy of the event): nothing more happens, nothing is said.
    expect(describeOwnMembershipChange(event)).toBeNull();
    dispatch(event);
    expect(useCompanyStore.getState().companies.map((c) => c.id)).toEqual(['c2']);
  });

  it('keeps the current company when another company of the user is deleted', () => {
    dispatch({ name: 'company.deleted', payload: { companyId: 'c2' } });
    const state = useCompanyStore.getState();
    expect(state.companies.map((c) => c.id)).toEqual(['c1']);
    expect(state.currentCompanyId).toBe('c1');
  });

  it("says nothing about another member's removal", () => {
    expect(
      describeOwnMembershipChange({ name: 'member.removed', payload: { companyId: 'c1', userId: 'u2' } }),
    ).toBeNull();
  });
});
