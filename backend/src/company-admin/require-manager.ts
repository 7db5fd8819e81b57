import type { CompanyScope } from '../common/company-scope';
import { ForbiddenError } from '../common/domain-errors';
import type { CompanyRole } from '../contracts/companies';

export function isManagerRole(role: CompanyRole | null | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

/**
 * The access check of every company-administration action: owners and admins only. Non-members never
 * get here (CompanyMemberGuard answers 404 'Company not found'); plain members get 403.
 */
export function requireManager(scope: CompanyScope): void {
  if (!isManagerRole(scope.role)) throw new ForbiddenError();
}

/** First and last name, or the spec's fallback. */
export function personName(person: { firstName: string; lastName: string }): string {
  return [person.firstName, person.lastName].filter(Boolean).join(' ').trim() || 'Unnamed User';
}
