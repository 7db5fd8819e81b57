import { describe, expect, it } from 'vitest';
import type { InvitationView } from '../../../api/contracts';
import { daysRemaining, shownStatus } from './CompanyInvitations';

const NOW = Date.parse('2030-01-01T12:00:00.000Z');

const invitation = (overrides: Partial<InvitationView>): InvitationView => ({
  id: 'i1',
  companyId: 'c1',
  email: 'grace@example.com',
  role: 'user',
  status: 'pending',
  invitedBy: null,
  expiresAt: '2030-01-31T23:59:59.999Z',
  createdAt: '2030-01-01T12:00:00.000Z',
  ...overrides,
});

describe('Company Invitations: expiry', () => {
  it('counts days remaining rounded up', () => {
    expect(daysRemaining('2030-01-31T23:59:59.999Z', NOW)).toBe(31);
    expect(daysRemaining('2030-01-01T12:00:01.000Z', NOW)).toBe(1);
    expect(daysRemaining('2030-01-02T12:00:00.000Z', NOW)).toBe(1);
    expect(daysRemaining('2029-12-31T00:00:00.000Z', NOW)).toBe(0);
  });

  it('shows a pending invitation past its expiry as expired, and other statuses as they are', () => {
    expect(shownStatus(invitation({ expiresAt: '2030-01-01T11:59:59.999Z' }), NOW)).toBe('expired');
    expect(shownStatus(invitation({}), NOW)).toBe('pending');
    expect(shownStatus(invitation({ status: 'accepted', expiresAt: '2029-01-01T00:00:00Z' }), NOW)).toBe(
      'accepted',
    );
  });
});
