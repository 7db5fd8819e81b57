/**
 * Single sign-on per company (OpenID Connect), under /api/company/sso (the company named by
 * X-Company-Id): its owners only; admins and members get 403, non-members 404 'Company not found'.
 * The client secret is write-only: accepted on save, never returned (only whether one is set).
 */

/** An email domain the company claims; it counts for sign-in and auto-join only once verified. */
export interface SsoDomainView {
  id: string;
  /** Lower case, internationalised names in punycode. */
  domain: string;
  verifiedAt: string | null;
  /** Where the outstanding proof link was mailed (null once verified). */
  proofSentTo: string | null;
}

/** GET /api/company/sso. `issuer` and `clientId` are null until the owner saves them. */
export interface SsoSettingsView {
  enabled: boolean;
  issuer: string | null;
  clientId: string | null;
  hasClientSecret: boolean;
  /** "Members must use SSO". */
  requireSso: boolean;
  /** "People from these domains join automatically as User". */
  autoJoin: boolean;
  domains: SsoDomainView[];
  /** The redirect URI to register at the provider. */
  redirectUri: string;
}

/**
 * PUT /api/company/sso. `clientSecret` absent (or empty) keeps the saved one; a first save needs one.
 * The issuer must be https (http only for loopback or allow-listed hosts).
 */
export interface UpdateSsoSettingsRequest {
  enabled: boolean;
  issuer: string;
  clientId: string;
  clientSecret?: string;
  requireSso: boolean;
  autoJoin: boolean;
}

/**
 * POST /api/company/sso/domains: claims a domain and mails a proof link to `email`, an address at that
 * domain (postmaster@<domain> when absent). Claiming it again sends a new link (the old one stops working).
 */
export interface AddSsoDomainRequest {
  domain: string;
  email?: string;
}

/** POST /api/sso/domains/verify: the mailed link's token (the link is the credential). */
export interface VerifySsoDomainRequest {
  token: string;
}

export interface VerifySsoDomainResponse {
  domain: string;
  companyName: string;
}

export const SSO_DOMAIN_PROOF_TTL_HOURS = 48;

/** 403 SSO_REQUIRED: a company's data asked for by a session not made through its provider. */
export const SSO_REQUIRED_MESSAGE = 'This company requires single sign-on. Sign in with SSO to reach it.';
