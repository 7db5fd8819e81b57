import { nextClientAddress } from './identities.test-util';

/** Someone signed in: a bare access token, or an account from registerUser / registerAccount. */
export type Caller = string | { accessToken: string; companyId?: string };

/**
 * The headers of a request made by `caller`, for supertest's `.set()`: its access token, the company it
 * acts in and a client address of its own.
 *
 * The company is the caller's own (registration's) company unless `company` names another one; `null`
 * sends none, for routes outside a company (profile, platform admin). Each call comes from a new address
 * so the per-address limits of one suite never add up; a test about addresses sets its own after.
 */
export function as(caller: Caller, company?: string | null): Record<string, string> {
  const token = typeof caller === 'string' ? caller : caller.accessToken;
  const companyId = company === undefined && typeof caller !== 'string' ? caller.companyId : company;
  return {
    Authorization: `Bearer ${token}`,
    'X-Forwarded-For': nextClientAddress(),
    ...(companyId ? { 'X-Company-Id': companyId } : {}),
  };
}
