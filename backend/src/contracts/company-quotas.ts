/**
 * A company's quotas, as the platform admin sets them (Platform Admin → Companies → Company Details).
 * Every limit is null for no limit, the default. Message periods are UTC: a day from 00:00 UTC, a
 * calendar month from the 1st at 00:00 UTC. A message counts once it is stored (sent to its agent);
 * a regenerate or an edit asks the agent again without a new message and is not counted, nor is a
 * voice call's transcript.
 */
export interface CompanyQuotas {
  /** The bytes the company's attached files may take in all. */
  storedBytesLimit: number | null;
  /** The messages each member may send per UTC day. */
  messagesPerUserPerDay: number | null;
  /** The messages the company's members may send in all per calendar month (UTC). */
  messagesPerCompanyPerMonth: number | null;
}

/** A company's quotas with what it uses of each: Company Details (company admin and platform admin). */
export interface CompanyQuotaUsage extends CompanyQuotas {
  /** The bytes its attached files take now (uploads under way count their declared size). */
  storedBytesUsed: number;
  /** The messages its members sent this calendar month (UTC). */
  messagesThisMonth: number;
  /**
   * The messages the viewer sent today (UTC) in this company: Company Admin's Company Details; null on
   * the platform admin's (who reads it for no member in particular).
   */
  yourMessagesToday: number | null;
}

/** Largest message limits the form and the API take. */
export const MAX_MESSAGE_QUOTA = 1_000_000_000;

/**
 * PATCH /api/admin/companies/:id/quotas (superadmins): a limit left out stays as it is; null removes it.
 * Answers the CompanyQuotaUsage.
 */
export type UpdateCompanyQuotasRequest = { [K in keyof CompanyQuotas]?: CompanyQuotas[K] };
