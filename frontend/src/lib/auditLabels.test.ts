import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '@contracts/audit';
import { AUDIT_ACTION_LABELS, auditActionLabel, auditDetailsSummary } from './auditLabels';

describe('audit labels', () => {
  it('names every action, each differently', () => {
    const labels = AUDIT_ACTIONS.map((a) => AUDIT_ACTION_LABELS[a]);
    expect(labels.every((l) => typeof l === 'string' && l.length > 0)).toBe(true);
    expect(new Set(labels).size).toBe(labels.length);
    // An action a newer server records still reads as something.
    expect(auditActionLabel('something.new')).toBe('something.new');
  });

  it('sums up the details each action records', () => {
    const cases: Array<[Parameters<typeof auditDetailsSummary>[0], string]> = [
      [{ action: 'auth.sign_in', details: { method: 'google' } }, 'with Google'],
      [{ action: 'auth.sign_in_failed', details: { method: 'password' } }, 'wrong email or password'],
      [{ action: 'auth.sign_in_failed', details: { reason: 'account_disabled' } }, 'account disabled'],
      [{ action: 'auth.email_changed', details: { from: 'a@x.io', to: 'b@x.io' } }, 'a@x.io → b@x.io'],
      [{ action: 'member.role_changed', details: { from: 'admin', to: 'owner' } }, 'Admin → Owner'],
      [{ action: 'member.removed', details: { role: 'user' } }, 'was User'],
      [{ action: 'invitation.created', details: { email: 'a@x.io', role: 'admin' } }, 'as Admin'],
      [{ action: 'company.created', details: { via: 'registration' } }, 'at sign-up'],
      [{ action: 'company.created', details: { via: 'platform_admin', owner: 'o@x.io' } }, 'owner o@x.io'],
      [
        { action: 'company.deleted', details: { members: 3, agents: 1, chats: 0, messages: 0 } },
        '3 members, 1 agent, 0 chats',
      ],
      [
        {
          action: 'company.deleted',
          details: { members: 1, agents: 0, chats: 2, files: 3, fileBytes: 3145728 },
        },
        '1 member, 0 agents, 2 chats, 3 files (3 MB)',
      ],
      [
        { action: 'chat.deleted', details: { messages: 4, files: 1, fileBytes: 2048 } },
        '4 messages, 1 file (2 KB)',
      ],
      [{ action: 'chat.deleted', details: { messages: 1, files: 0, fileBytes: 0 } }, '1 message, 0 files'],
      [
        { action: 'agent.deleted', details: { chats: 2, files: 1, fileBytes: 1048576 } },
        '2 chats, 1 file (1 MB)',
      ],
      [{ action: 'agent.deleted', details: {} }, ''],
      [
        {
          action: 'company.quotas_updated',
          details: { before: { storedBytesLimit: null }, after: { storedBytesLimit: 52428800 } },
        },
        'storage limit no limit → 50 MB',
      ],
      [
        {
          action: 'company.quotas_updated',
          details: {
            before: { storedBytesLimit: null, messagesPerUserPerDay: null, messagesPerCompanyPerMonth: 5000 },
            after: { storedBytesLimit: null, messagesPerUserPerDay: 100, messagesPerCompanyPerMonth: null },
          },
        },
        'messages per user per day no limit → 100, messages per month 5000 → no limit',
      ],
      [{ action: 'company.quotas_updated', details: { before: 'x' } }, ''],
      [
        { action: 'colors.updated', details: { changed: ['light.primary', 'dark.primary'] } },
        'light.primary, dark.primary',
      ],
      [{ action: 'agent.deleted', details: {} }, ''],
      // Unexpected shapes never throw.
      [{ action: 'member.role_changed', details: {} }, ''],
      [{ action: 'settings.updated', details: { changed: 'logoUrl' } }, ''],
    ];
    for (const [entry, summary] of cases) expect(auditDetailsSummary(entry)).toBe(summary);
  });
});
