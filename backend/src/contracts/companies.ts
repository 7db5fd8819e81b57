export type CompanyRole = 'owner' | 'admin' | 'user';

/** A company as its member sees it, with the member's role in it. */
export interface CompanyMembership {
  id: string;
  name: string;
  role: CompanyRole;
  createdAt: string;
  /**
   * The company requires single sign-on and the session asking was not made through its provider: its data
   * is refused (403 SSO_REQUIRED) until the person signs in with SSO. Absent otherwise.
   */
  ssoRequired?: boolean;
}

/** POST /api/companies */
export interface CreateCompanyRequest {
  name: string;
}
