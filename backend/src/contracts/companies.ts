export type CompanyRole = 'owner' | 'admin' | 'user';

/** A company as its member sees it, with the member's role in it. */
export interface CompanyMembership {
  id: string;
  name: string;
  role: CompanyRole;
  createdAt: string;
}

/** POST /api/companies */
export interface CreateCompanyRequest {
  name: string;
}
