/**
 * The audit log: every security-relevant change, written in the same transaction as the change.
 * Platform Admin → Security reads all of it (GET /api/admin/audit); Company Admin → Activity reads its
 * own company's entries (GET /api/company/activity).
 */
export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.password_changed',
  'auth.password_reset',
  'auth.email_changed',
  'member.role_changed',
  'member.removed',
  'invitation.created',
  'invitation.resent',
  'invitation.accepted',
  'invitation.deleted',
  'settings.updated',
  'colors.updated',
  'user.invited',
  'user.password_reset_sent',
  'user.superadmin_granted',
  'user.superadmin_revoked',
  'user.disabled',
  'user.enabled',
  'company.created',
  'company.deleted',
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
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditTargetType =
  'user' | 'company' | 'agent' | 'invitation' | 'settings' | 'message' | 'chat' | 'delivery';

export interface AuditEntryView {
  /** Also the paging cursor. */
  id: string;
  action: AuditAction;
  actor: { id: string | null; label: string | null } | null;
  target: { type: AuditTargetType; id: string | null; label: string | null } | null;
  company: { id: string; name: string | null } | null;
  ip: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

/** Newest first; `nextCursor` is the `before` of the next page, null at the end. */
export interface AuditPage {
  entries: AuditEntryView[];
  nextCursor: string | null;
}
