import { AUDIT_ACTIONS } from '@contracts/audit';
import type { AuditAction, AuditEntryView } from '../api/contracts';
import { formatBytes } from './format';

/** What each audit action is called on screen. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'auth.sign_in': 'Signed in',
  'auth.sign_in_failed': 'Failed sign-in',
  'auth.password_changed': 'Password changed',
  'auth.password_reset': 'Password reset',
  'auth.email_changed': 'Email changed',
  'member.role_changed': 'Role changed',
  'member.removed': 'Member removed',
  'invitation.created': 'Invitation sent',
  'invitation.resent': 'Invitation resent',
  'invitation.accepted': 'Invitation accepted',
  'invitation.deleted': 'Invitation deleted',
  'settings.updated': 'Settings updated',
  'colors.updated': 'Colors updated',
  'user.invited': 'User invited',
  'user.password_reset_sent': 'Password reset email sent',
  'user.superadmin_granted': 'Made Super Admin',
  'user.superadmin_revoked': 'Super Admin removed',
  'user.disabled': 'Account disabled',
  'user.enabled': 'Account enabled',
  'company.created': 'Company created',
  'company.deleted': 'Company deleted',
  'company.quotas_updated': 'Company quotas changed',
  'chat.deleted': 'Chat deleted',
  'agent.deleted': 'Agent deleted',
  'sso.updated': 'Single sign-on updated',
  'sso.domain_claimed': 'SSO domain added',
  'sso.domain_verified': 'SSO domain verified',
  'sso.domain_removed': 'SSO domain removed',
  'sso.disabled': 'Single sign-on turned off',
  'member.auto_joined': 'Joined through single sign-on',
  'message.edited': 'Message edited',
  'delivery.replayed': 'Delivery replayed',
  'delivery.retention_changed': 'Delivery log retention changed',
};

/** Every action, for the platform log's Action filter. */
export const PLATFORM_AUDIT_ACTIONS: readonly AuditAction[] = AUDIT_ACTIONS;

/** The actions a company's own log can hold (the others are not about one company). */
export const COMPANY_AUDIT_ACTIONS: readonly AuditAction[] = [
  'member.role_changed',
  'member.removed',
  'invitation.created',
  'invitation.resent',
  'invitation.accepted',
  'invitation.deleted',
  'company.created',
  'company.quotas_updated',
  'chat.deleted',
  'agent.deleted',
  'sso.updated',
  'sso.domain_claimed',
  'sso.domain_verified',
  'sso.domain_removed',
  'sso.disabled',
  'member.auto_joined',
  'message.edited',
  'delivery.replayed',
  'delivery.retention_changed',
];

export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABELS[action as AuditAction] ?? action;
}

const ROLE_LABELS: Record<string, string> = { owner: 'Owner', admin: 'Admin', user: 'User' };
const roleLabel = (role: unknown) => (typeof role === 'string' ? (ROLE_LABELS[role] ?? role) : '');

const SIGN_IN_METHODS: Record<string, string> = {
  password: 'with password',
  google: 'with Google',
  registration: 'at sign-up',
  invitation: 'at invited sign-up',
  sso: 'with single sign-on',
};

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** One short line of what the entry's details say (old and new role, how someone signed in...), or ''. */
export function auditDetailsSummary(entry: Pick<AuditEntryView, 'action' | 'details'>): string {
  const d = entry.details ?? {};
  switch (entry.action) {
    case 'auth.sign_in':
      return SIGN_IN_METHODS[text(d.method)] ?? '';
    case 'auth.sign_in_failed':
      if (d.reason === 'email_not_verified') return 'email not verified';
      if (d.reason === 'account_disabled') return 'account disabled';
      if (d.method === 'sso') return `with single sign-on${text(d.reason) ? `: ${text(d.reason)}` : ''}`;
      return d.method === 'google'
        ? `with Google${text(d.reason) ? `: ${text(d.reason)}` : ''}`
        : 'wrong email or password';
    case 'auth.email_changed':
      return text(d.from) && text(d.to) ? `${text(d.from)} → ${text(d.to)}` : '';
    case 'member.role_changed':
      return roleLabel(d.from) && roleLabel(d.to) ? `${roleLabel(d.from)} → ${roleLabel(d.to)}` : '';
    case 'member.removed':
      return d.role ? `was ${roleLabel(d.role)}` : '';
    case 'invitation.created':
    case 'invitation.resent':
    case 'invitation.deleted':
    case 'invitation.accepted':
      return d.role ? `as ${roleLabel(d.role)}` : '';
    case 'company.created':
      if (d.via === 'registration') return 'at sign-up';
      return text(d.owner) ? `owner ${text(d.owner)}` : '';
    case 'company.deleted':
      return (
        plural(d.members, 'member') +
        plural(d.agents, 'agent', ', ') +
        plural(d.chats, 'chat', ', ') +
        plural(d.files, 'file', ', ') +
        bytesInBrackets(d.fileBytes)
      );
    case 'chat.deleted':
      return plural(d.messages, 'message') + plural(d.files, 'file', ', ') + bytesInBrackets(d.fileBytes);
    case 'agent.deleted':
      return plural(d.chats, 'chat') + plural(d.files, 'file', ', ') + bytesInBrackets(d.fileBytes);
    case 'company.quotas_updated':
      return quotaChanges(d.before, d.after);
    case 'sso.domain_claimed':
    case 'sso.domain_verified':
    case 'sso.domain_removed':
      return text(d.domain);
    case 'settings.updated':
    case 'colors.updated':
    case 'sso.updated':
      return Array.isArray(d.changed) ? d.changed.filter((k) => typeof k === 'string').join(', ') : '';
    case 'user.invited':
      return text(d.name);
    default:
      return '';
  }
}

/** ' (4.2 MB)' for a positive byte count, else ''. */
function bytesInBrackets(bytes: unknown): string {
  return typeof bytes === 'number' && bytes > 0 ? ` (${formatBytes(bytes)})` : '';
}

/**
 * 'storage limit 50 MB → 1 GB, messages per user per day no limit → 100' ('no limit' for null): the
 * quotas that changed.
 */
function quotaChanges(before: unknown, after: unknown): string {
  const quotas: Array<[string, string, (n: number) => string]> = [
    ['storedBytesLimit', 'storage limit', formatBytes],
    ['messagesPerUserPerDay', 'messages per user per day', String],
    ['messagesPerCompanyPerMonth', 'messages per month', String],
  ];
  const limitOf = (value: unknown, key: string, format: (n: number) => string): string | undefined => {
    if (!value || typeof value !== 'object' || !(key in value)) return undefined;
    const limit = (value as Record<string, unknown>)[key];
    return typeof limit === 'number' ? format(limit) : 'no limit';
  };
  return quotas
    .map(([key, name, format]) => {
      const from = limitOf(before, key, format);
      const to = limitOf(after, key, format);
      return from && to && from !== to ? `${name} ${from} → ${to}` : '';
    })
    .filter(Boolean)
    .join(', ');
}

/** '3 members' (with a separator in front when `before` is given); '' when the count is not a number. */
function plural(count: unknown, noun: string, before = ''): string {
  const n = typeof count === 'number' ? count : typeof count === 'string' ? Number(count) : NaN;
  if (!Number.isFinite(n)) return '';
  return `${before}${n} ${noun}${n === 1 ? '' : 's'}`;
}
