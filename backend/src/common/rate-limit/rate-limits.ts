/**
 * Every rate limit of the API in one table. A route opts in with `@RateLimit('name')`; each of its
 * buckets is counted on its own and the first one over its limit refuses the request (429 with
 * `Retry-After`). Buckets are keyed by:
 * - `ip`: the client address (behind a proxy, see TRUST_PROXY), so one address cannot try many accounts;
 * - `account`: the email in the request body, so one account cannot be tried from many addresses;
 * - `user`: the signed-in user, for authenticated actions that cost us work (mail, webhooks, storage).
 * Counts are kept in Redis when REDIS_URL is set (shared by every api node), in memory otherwise.
 */
export type RateLimitKey = 'ip' | 'account' | 'user';

export interface RateLimitBucket {
  by: RateLimitKey;
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const ip = (limit: number, windowMs: number): RateLimitBucket => ({ by: 'ip', limit, windowMs });
const account = (limit: number, windowMs: number): RateLimitBucket => ({ by: 'account', limit, windowMs });
const user = (limit: number, windowMs: number): RateLimitBucket => ({ by: 'user', limit, windowMs });

export const RATE_LIMITS = {
  login: [ip(30, MINUTE), account(10, MINUTE)],
  register: [ip(10, 10 * MINUTE), account(5, HOUR)],
  forgotPassword: [ip(10, 10 * MINUTE), account(3, 15 * MINUTE)],
  resetPassword: [ip(20, 10 * MINUTE)],
  resendVerification: [ip(10, 10 * MINUTE), account(3, 15 * MINUTE)],
  confirmEmailToken: [ip(30, 10 * MINUTE)],
  refresh: [ip(120, MINUTE)],
  logout: [ip(60, MINUTE)],
  google: [ip(30, MINUTE)],
  providers: [ip(600, MINUTE)],
  changePassword: [user(10, MINUTE)],
  changeProfile: [user(30, MINUTE)],
  sendMessage: [user(60, MINUTE)],
  upload: [user(20, MINUTE)],
  // Up to 10 files a message, one request each.
  attachFile: [user(100, MINUTE)],
  webhookTest: [user(20, MINUTE)],
  createAgent: [user(30, HOUR)],
  createCompany: [user(10, HOUR)],
  demoAgent: [ip(120, MINUTE)],
  // Agents delivering replies later (202 Accepted): one agent server answers for many users.
  agentCallback: [ip(600, MINUTE)],
  // Voice calls: a call start may ask the provider for a signed URL; transcript turns come several a minute.
  voiceCall: [user(20, MINUTE)],
  voiceTranscript: [user(600, MINUTE)],
  voiceFeedback: [user(120, MINUTE)],
  // Thumbs up or down on any reply: each may POST a feedback event to the agent.
  replyFeedback: [user(120, MINUTE)],
  // Invitations: sending (and resending) costs a mail; the public ones are keyed by address.
  invite: [user(60, HOUR)],
  invitationLookup: [ip(60, MINUTE)],
  acceptInvitation: [user(20, MINUTE)],
  registerInvited: [ip(10, 10 * MINUTE)],
  // Single sign-on: a domain proof costs a mail; the domain's link is a credential like the account links.
  ssoDomainProof: [user(20, HOUR)],
  ssoDomainVerify: [ip(30, 10 * MINUTE)],
  // Whether an address has single sign-on says which domains a company proved: limited like a login.
  ssoLookup: [ip(30, MINUTE)],
  ssoStart: [ip(30, MINUTE)],
} satisfies Record<string, RateLimitBucket[]>;

export type RateLimitName = keyof typeof RATE_LIMITS;

export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a minute and try again.';
export const TOO_MANY_REQUESTS = 'Too many requests. Please wait a moment and try again.';
