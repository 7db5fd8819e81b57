/**
 * A company's quotas, as the platform admin sets them (Platform Admin → Companies → Company Details).
 * Every limit is null for no limit, the default.
 */
export interface CompanyQuotas {
  /** The bytes the company's attached files may take in all. */
  storedBytesLimit: number | null;
}

/** A company's quotas with what it uses of each: Company Details (company admin and platform admin). */
export interface CompanyQuotaUsage extends CompanyQuotas {
  /** The bytes its attached files take now (uploads under way count their declared size). */
  storedBytesUsed: number;
}

/**
 * PATCH /api/admin/companies/:id/quotas (superadmins): a limit left out stays as it is; null removes it.
 * Answers the CompanyQuotaUsage.
 */
export type UpdateCompanyQuotasRequest = { [K in keyof CompanyQuotas]?: CompanyQuotas[K] };
