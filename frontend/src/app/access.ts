import type { CompanyRole, User } from '../api/contracts';

/** The one access map: who sees which admin entry points. */
export function canAccessCompanyAdmin(role: CompanyRole | null | undefined): boolean {
  return role === 'owner';
}

export function canAccessPlatformAdmin(user: Pick<User, 'isSuperadmin'> | null | undefined): boolean {
  return user?.isSuperadmin === true;
}
