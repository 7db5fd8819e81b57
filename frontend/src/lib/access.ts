import type { CompanyRole, User } from '../api/contracts';

/**
 * The one access map: who sees which admin entry points. Company Admin: owners and admins of the current
 * company (the spec's menu shows it to owners only, but its section 1 has owners and admins manage users,
 * invitations and agents, and the server lets both).
 */
export function canAccessCompanyAdmin(role: CompanyRole | null | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

export function canAccessPlatformAdmin(user: Pick<User, 'isSuperadmin'> | null | undefined): boolean {
  return user?.isSuperadmin === true;
}
