/**
 * Who may call what: one row per HTTP route and per client → server socket event of the running app.
 * authorization-matrix.int-spec.ts discovers the routes Nest registers and fails for any route without
 * a row here, then calls every route as every identity below and checks the status.
 *
 * Adding a route: add a row with one of the rules (or a new rule) and, when the route needs a path
 * parameter or a body, a `call` that builds the request from the owner's fixtures. Use a request the
 * allowed identities would succeed with, so that a refusal is visible as a status, not hidden by a 400.
 */
import { DEFAULT_ACCENT_COLOR, DEFAULT_COLOR_SETTINGS } from '../../src/contracts/platform-appearance';
import type { RouteKey } from './route-discovery';

export const IDENTITIES = [
  'signedOut',
  'garbageToken',
  'revokedSession',
  'member',
  'admin',
  'owner',
  'otherCompany',
  'superadmin',
] as const;
export type Identity = (typeof IDENTITIES)[number];

/**
 * - signedOut: no Authorization header. garbageToken: a Bearer value that is no token.
 * - revokedSession: a member of the company whose session was logged out (token still well signed).
 * - member / admin / owner: roles in the owner's company (the company every request names).
 * - otherCompany: owner of another company, not a member of this one.
 * - superadmin: platform administrator, not a member of this company.
 */
export const IDENTITY_NOTES: Record<Identity, string> = {
  signedOut: 'no token',
  garbageToken: 'Bearer garbage',
  revokedSession: 'member, logged out',
  member: "role 'user'",
  admin: "role 'admin'",
  owner: "role 'owner', owns the objects",
  otherCompany: 'owner of another company',
  superadmin: 'platform admin, not a member',
};

/** Objects of the owner's company, made through the API before the walk. */
export interface Fixtures {
  companyId: string;
  /** An agent of the owner. */
  agentId: string;
  /** A chat of the owner with that agent, holding `messageId`. */
  chatId: string;
  messageId: string;
  messageSeq: string;
  /** An agent's voice turn in that chat (the agent has a voice agent id). */
  voiceMessageId: string;
  /** A voice call of the owner into that chat (its transcript turns name it). */
  voiceCallId: string;
  /** Another voice call of the owner into that chat, for the walk to end. */
  endedVoiceCallId: string;
  /** The owner's avatar file. */
  fileId: string;
  /** A pending invitation of the owner's company. */
  invitationId: string;
  /** A plain member ('user') of the owner's company who joined through an invitation. */
  memberUserId: string;
  /** That member's email (an existing account, e.g. to own a company made by a platform admin). */
  memberEmail: string;
  /** A second company of the owner, with nothing in it: platform admins delete it. */
  spareCompanyId: string;
  /** An email domain the owner's company claimed for single sign-on (not proved). */
  ssoDomainId: string;
  /** A webhook the SSRF guard lets through in the test app. */
  webhookUrl: string;
  /** The delivery log's row of `messageId`'s reply (delivered: a replay of it is refused, 409). */
  deliveryId: string;
  /** A fresh address per call, for routes that must not collide (emails). */
  unique(): string;
}

export interface RouteCall {
  /** Values for the route's `:params`. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: object;
  /** Sends a small PNG as multipart field `file` instead of a JSON body. */
  image?: true;
}

export type Expected = Record<Identity, number>;

export interface RouteAccess {
  /** The rule in a few words: printed in the matrix. */
  rule: string;
  expect: Expected;
  call?: (f: Fixtures) => RouteCall;
  /**
   * The call uses up the owner's objects (a delete): new fixtures are made before this route and after
   * each call that succeeded (so that an admin's delete leaves the owner something to delete).
   */
  consumesFixtures?: true;
  /** The path names an object of the owner: also tried by outsiders naming their own company. */
  ownerObject?: true;
}

const NOT_SIGNED_IN = { signedOut: 401, garbageToken: 401, revokedSession: 401 } as const;

/** Anyone, signed in or not, gets the same answer. */
export function publicRoute(status: number): Omit<RouteAccess, 'call'> {
  return {
    rule: 'public',
    expect: Object.fromEntries(IDENTITIES.map((i) => [i, status])) as Expected,
  };
}

/** Any live session; no company needed. */
export function signedIn(status: number): Omit<RouteAccess, 'call'> {
  return {
    rule: 'signed in',
    expect: {
      ...NOT_SIGNED_IN,
      member: status,
      admin: status,
      owner: status,
      otherCompany: status,
      superadmin: status,
    },
  };
}

/** Members of the company (any role); to everyone else the company does not exist. */
export function companyMember(status: number): Omit<RouteAccess, 'call'> {
  return {
    rule: 'company member',
    expect: {
      ...NOT_SIGNED_IN,
      member: status,
      admin: status,
      owner: status,
      otherCompany: 404,
      superadmin: 404,
    },
  };
}

/** Owners and admins of the company; plain members are refused. For invitations, members, settings. */
export function companyManager(status: number): Omit<RouteAccess, 'call'> {
  return {
    rule: 'company owner or admin',
    expect: {
      ...NOT_SIGNED_IN,
      member: 403,
      admin: status,
      owner: status,
      otherCompany: 404,
      superadmin: 404,
    },
  };
}

/** Owners of the company only; admins and plain members are refused. For single sign-on. */
export function companyOwner(status: number): Omit<RouteAccess, 'call'> {
  return {
    rule: 'company owner',
    expect: {
      ...NOT_SIGNED_IN,
      member: 403,
      admin: 403,
      owner: status,
      otherCompany: 404,
      superadmin: 404,
    },
  };
}

/** The user's own object in the company: to anyone else, including admins, it does not exist. */
export function ownObject(status: number): Omit<RouteAccess, 'call'> {
  return {
    rule: 'own object',
    ownerObject: true,
    expect: {
      ...NOT_SIGNED_IN,
      member: 404,
      admin: 404,
      owner: status,
      otherCompany: 404,
      superadmin: 404,
    },
  };
}

/** Platform administration. */
export function superadminOnly(status: number): Omit<RouteAccess, 'call'> {
  return {
    rule: 'superadmin',
    expect: {
      ...NOT_SIGNED_IN,
      member: 403,
      admin: 403,
      owner: 403,
      otherCompany: 403,
      superadmin: status,
    },
  };
}

const agentParam = (f: Fixtures) => ({ id: f.agentId });
const invitationParam = (f: Fixtures) => ({ id: f.invitationId });
const memberParam = (f: Fixtures) => ({ id: f.memberUserId });
const chatParam = (f: Fixtures) => ({ id: f.chatId });

export const HTTP_ACCESS: Record<RouteKey, RouteAccess> = {
  // API description (Swagger UI and its assets): public, as the README documents the API.
  'GET /api/docs': publicRoute(200),
  'GET /api/docs/': publicRoute(200),
  'GET /api/docs/index.html': publicRoute(200),
  'GET /api/docs/LICENSE': publicRoute(404), // registered by Swagger, the file is not shipped
  'GET /api/docs/json': publicRoute(200),
  'GET /api/docs-yaml': publicRoute(200),
  'GET /api/docs/swagger-ui-init.js': publicRoute(200),
  'GET /api/docs/docs/swagger-ui-init.js': publicRoute(200),

  'GET /api/health': publicRoute(200),
  'GET /api/health/live': publicRoute(200),
  'GET /api/health/ready': publicRoute(200),
  // The queue dashboard's cookie: superadmins only, from the app's origin. The test app has no Redis, so
  // the superadmin is told there is no dashboard. The dashboard itself (bull-board, mounted only with
  // REDIS_URL) is middleware behind that cookie, walked by queue-dashboard.int-spec.ts.
  'POST /api/admin/queues/session': superadminOnly(404),
  // Files are served by unguessable id (avatars are shown to other members and in emails).
  'GET /api/files/:id': { ...publicRoute(200), call: (f) => ({ params: { id: f.fileId } }) },
  // Attachments: only by a signed link (the history hands the chat's owner fresh ones). Without one, the
  // same 404 to everyone, the owner's session included (attachments.int-spec.ts walks valid, altered,
  // another file's and expired links).
  'GET /api/attachments/:id': { ...publicRoute(404), call: (f) => ({ params: { id: f.chatId } }) },

  // Sign-in and friends: the same answer whoever asks. Bodies are invalid on purpose (no account made).
  'POST /api/auth/register': { ...publicRoute(400), call: () => ({ body: {} }) },
  'POST /api/auth/login': { ...publicRoute(400), call: () => ({ body: {} }) },
  'POST /api/auth/refresh': publicRoute(401), // the refresh cookie is the credential, not a Bearer token
  'POST /api/auth/logout': publicRoute(204),
  'POST /api/auth/forgot-password': {
    ...publicRoute(202),
    call: (f) => ({ body: { email: `${f.unique()}@example.com` } }),
  },
  'POST /api/auth/reset-password': {
    ...publicRoute(400),
    call: () => ({ body: { token: 'not-a-reset-token', password: 'a new long password' } }),
  },
  'POST /api/auth/resend-verification': {
    ...publicRoute(202),
    call: (f) => ({ body: { email: `${f.unique()}@example.com` } }),
  },
  // Emailed links: a made-up token is refused alike for everyone (the link is the credential).
  'POST /api/auth/verify-email': { ...publicRoute(400), call: () => ({ body: { token: 'not-a-token' } }) },
  'POST /api/auth/confirm-email': { ...publicRoute(400), call: () => ({ body: { token: 'not-a-token' } }) },
  'GET /api/auth/providers': publicRoute(200),
  // Google sign-in is not configured in the test app: the routes do not exist for anyone.
  'GET /api/auth/google': publicRoute(404),
  'GET /api/auth/google/callback': publicRoute(404),
  // Single sign-on: whether an address has it, and the trip through its company's provider. An address
  // no company proved is sent back to the sign-in page alike for everyone; a callback without the
  // browser's pending-login cookie too.
  'GET /api/auth/sso/lookup': {
    ...publicRoute(200),
    call: (f) => ({ query: { email: `${f.unique()}@example.com` } }),
  },
  'GET /api/auth/sso/start': {
    ...publicRoute(302),
    call: (f) => ({ query: { email: `${f.unique()}@example.com` } }),
  },
  'GET /api/auth/sso/callback': { ...publicRoute(302), call: () => ({ query: { code: 'x', state: 'y' } }) },

  'POST /api/demo-agent/webhook': { ...publicRoute(200), call: () => ({ body: { message: 'hello' } }) },
  // Long-running agents deliver here with the message's callback token as the Bearer value: a user's
  // session token is no such token, whoever holds it (agent-callbacks.int-spec.ts walks the token cases).
  'POST /api/agent-callbacks/:messageId': {
    ...publicRoute(401),
    rule: 'callback token only',
    call: (f) => ({ params: { messageId: f.messageId }, body: { output: 'forged reply' } }),
  },

  // The caller's own account.
  'GET /api/me': signedIn(200),
  // Only the caller's own profile, companies and chats; another company's id falls back to their first.
  'GET /api/bootstrap': {
    ...signedIn(200),
    call: (f) => ({ query: { companyId: f.companyId, chat: 'true' } }),
  },
  // The refresh cookie is the credential (as POST /api/auth/refresh): no cookie, no session, for anyone.
  'POST /api/auth/session': {
    ...publicRoute(401),
    call: (f) => ({ query: { companyId: f.companyId, chat: 'true' } }),
  },
  'PATCH /api/me': { ...signedIn(200), call: () => ({ body: { bio: 'walked by the matrix' } }) },
  'POST /api/me/avatar': { ...signedIn(201), call: () => ({ image: true }) },
  // A wrong current password: allowed callers get past the guards to the password check.
  'POST /api/me/password': {
    ...signedIn(400),
    call: () => ({ body: { currentPassword: 'not the password', newPassword: 'another long password' } }),
  },
  'GET /api/companies': signedIn(200),
  'POST /api/companies': { ...signedIn(201), call: (f) => ({ body: { name: `Company ${f.unique()}` } }) },
  'GET /api/companies/:id': { ...companyMember(200), call: (f) => ({ params: { id: f.companyId } }) },
  'GET /api/webhook-test': signedIn(200),
  'POST /api/webhook-test': { ...signedIn(200), call: () => ({ body: { message: 'hello' } }) },

  // Agents: each user's own, in the company named by X-Company-Id.
  'GET /api/agents': companyMember(200),
  'POST /api/agents': {
    ...companyMember(201),
    call: (f) => ({ body: { name: 'Matrix agent', webhook: f.webhookUrl } }),
  },
  'PATCH /api/agents/:id': {
    ...ownObject(200),
    call: (f) => ({ params: agentParam(f), body: { name: 'Renamed by the matrix' } }),
  },
  'DELETE /api/agents/:id': {
    ...ownObject(204),
    consumesFixtures: true,
    call: (f) => ({ params: agentParam(f) }),
  },
  'POST /api/agents/:id/avatar': { ...ownObject(201), call: (f) => ({ params: agentParam(f), image: true }) },

  // Chats and messages: each user's own, in the company named by X-Company-Id.
  'GET /api/chats': companyMember(200),
  // Starting a chat with the owner's agent: nobody else can.
  'POST /api/chats': { ...ownObject(201), call: (f) => ({ body: { agentId: f.agentId } }) },
  'GET /api/chats/:id': { ...ownObject(200), call: (f) => ({ params: chatParam(f) }) },
  'PATCH /api/chats/:id': {
    ...ownObject(200),
    call: (f) => ({ params: chatParam(f), body: { title: 'Renamed by the matrix' } }),
  },
  'DELETE /api/chats/:id': {
    ...ownObject(204),
    consumesFixtures: true,
    call: (f) => ({ params: chatParam(f) }),
  },
  'GET /api/chats/:id/messages': {
    ...ownObject(200),
    call: (f) => ({ params: chatParam(f), query: { after: '0', limit: '10' } }),
  },
  'POST /api/chats/:id/messages': {
    ...ownObject(201),
    call: (f) => ({ params: chatParam(f), body: { content: 'hello from the matrix' } }),
  },
  // A file for the next message: into the owner's own chat only.
  'POST /api/chats/:id/attachments': {
    ...ownObject(201),
    call: (f) => ({ params: chatParam(f), image: true }),
  },
  // A file for a first message, before its chat exists: any member, into their own uploads.
  'POST /api/attachments': { ...companyMember(201), call: () => ({ image: true }) },
  // Stop a pending reply: nothing pending in the fixture's chat, so the owner's answer is {stopped: false}.
  'POST /api/chats/:id/stop': { ...ownObject(200), call: (f) => ({ params: chatParam(f) }) },
  'POST /api/messages': {
    ...ownObject(201),
    call: (f) => ({ body: { agentId: f.agentId, content: 'hello from the matrix' } }),
  },
  // Search and export: a member searches only their own chats; a chat exports to its owner only.
  'GET /api/search': { ...companyMember(200), call: () => ({ query: { q: 'owner speaks' } }) },
  'GET /api/chats/:id/export': {
    ...ownObject(200),
    call: (f) => ({ params: chatParam(f), query: { format: 'md' } }),
  },

  // Voice calls: with the owner's own agent (it has a voice agent id), into the owner's own chats.
  'POST /api/voice/sessions': {
    ...ownObject(201),
    call: (f) => ({ body: { agentId: f.agentId, chatId: f.chatId } }),
  },
  // A call's end: only its user in its company.
  'POST /api/voice/sessions/:id/end': {
    ...ownObject(204),
    call: (f) => ({ params: { id: f.endedVoiceCallId } }),
  },
  // A transcript turn names the caller's own call (another user's call is not found, like the chat).
  'POST /api/voice/transcripts': {
    ...ownObject(201),
    call: (f) => ({
      body: {
        callId: f.voiceCallId,
        chatId: f.chatId,
        role: 'user',
        text: 'said in a call walked by the matrix',
        conversationId: 'matrix-conversation',
        eventId: f.unique(),
      },
    }),
  },
  // Any agent reply of the owner's (the fixture's voice turn is one): rated with a thumbs down and a reason.
  'PUT /api/messages/:id/feedback': {
    ...ownObject(200),
    call: (f) => ({
      params: { id: f.voiceMessageId },
      body: { score: 'dislike', reason: 'rated by the matrix' },
    }),
  },
  // Regenerate the latest reply, edit the latest message (the fixture's first message is both: voice
  // turns are not sent to the agent), browse versions: the chat's owner only.
  'POST /api/messages/:id/regenerate': {
    ...ownObject(200),
    consumesFixtures: true,
    call: (f) => ({ params: { id: f.messageId } }),
  },
  'PATCH /api/messages/:id': {
    ...ownObject(200),
    consumesFixtures: true,
    call: (f) => ({ params: { id: f.messageId }, body: { content: 'edited by the matrix' } }),
  },
  'GET /api/messages/:id/versions': { ...ownObject(200), call: (f) => ({ params: { id: f.messageId } }) },
  'PUT /api/voice/messages/:id/feedback': {
    ...ownObject(200),
    call: (f) => ({ params: { id: f.voiceMessageId }, body: { score: 'like' } }),
  },

  // Company administration of the company named by X-Company-Id: owners and admins only.
  'GET /api/company/details': companyManager(200),
  'GET /api/company/insights': companyManager(200),
  'GET /api/company/deliveries': companyManager(200),
  'GET /api/company/deliveries/:id': {
    ...companyManager(200),
    ownerObject: true,
    call: (f) => ({ params: { id: f.deliveryId } }),
  },
  // Authorized, then refused for what the delivery is: it did not fail.
  'POST /api/company/deliveries/:id/replay': {
    ...companyManager(409),
    ownerObject: true,
    call: (f) => ({ params: { id: f.deliveryId } }),
  },
  'POST /api/company/deliveries/replay': {
    ...companyManager(200),
    call: (f) => ({ body: { agentId: f.agentId, since: new Date(Date.now() - 3_600_000).toISOString() } }),
  },
  'GET /api/company/delivery-settings': companyManager(200),
  'PATCH /api/company/delivery-settings': {
    ...companyManager(200),
    call: () => ({ body: { retentionDays: 7 } }),
  },
  'PATCH /api/company': { ...companyManager(200), call: () => ({ body: { name: 'Renamed by the matrix' } }) },
  'GET /api/company/members': companyManager(200),
  'PATCH /api/company/members/:id': {
    ...companyManager(200),
    ownerObject: true,
    call: (f) => ({ params: memberParam(f), body: { role: 'admin' } }),
  },
  'DELETE /api/company/members/:id': {
    ...companyManager(204),
    ownerObject: true,
    consumesFixtures: true,
    call: (f) => ({ params: memberParam(f) }),
  },
  'GET /api/company/agents': companyManager(200),
  'POST /api/company/agents': {
    ...companyManager(201),
    call: () => ({ body: { name: 'Matrix company agent', description: 'Made by the matrix' } }),
  },
  'PATCH /api/company/agents/:id': {
    ...companyManager(200),
    ownerObject: true,
    call: (f) => ({ params: agentParam(f), body: { isActive: true } }),
  },
  'GET /api/company/invitations': companyManager(200),
  'POST /api/company/invitations': {
    ...companyManager(201),
    call: (f) => ({ body: { email: `${f.unique()}@example.com`, role: 'user' } }),
  },
  'POST /api/company/invitations/:id/resend': {
    ...companyManager(200),
    ownerObject: true,
    call: (f) => ({ params: invitationParam(f) }),
  },
  'GET /api/company/invitations/:id/link': {
    ...companyManager(200),
    ownerObject: true,
    call: (f) => ({ params: invitationParam(f) }),
  },
  'DELETE /api/company/invitations/:id': {
    ...companyManager(204),
    ownerObject: true,
    consumesFixtures: true,
    call: (f) => ({ params: invitationParam(f) }),
  },

  // Single sign-on of the company named by X-Company-Id: its owners only (admins too are refused).
  'GET /api/company/sso': companyOwner(200),
  'PUT /api/company/sso': {
    ...companyOwner(200),
    call: () => ({
      body: {
        enabled: false,
        issuer: 'https://idp.example.com/realms/matrix',
        clientId: 'matrix-client',
        clientSecret: 'matrix-client-secret',
        requireSso: false,
        autoJoin: false,
      },
    }),
  },
  'POST /api/company/sso/domains': {
    ...companyOwner(201),
    call: (f) => ({ body: { domain: `${f.unique()}.example.com` } }),
  },
  'DELETE /api/company/sso/domains/:id': {
    ...companyOwner(204),
    ownerObject: true,
    consumesFixtures: true,
    call: (f) => ({ params: { id: f.ssoDomainId } }),
  },
  // The mailed domain proof link: the token is the credential, so a made-up one is refused alike.
  'POST /api/sso/domains/verify': { ...publicRoute(400), call: () => ({ body: { token: 'not-a-token' } }) },

  // Platform appearance: everyone reads it (the sign-in page too); superadmins change it.
  'GET /api/appearance': publicRoute(200),
  'PUT /api/admin/settings': {
    ...superadminOnly(200),
    call: () => ({ body: { logoUrl: null, faviconUrl: null, accentColor: DEFAULT_ACCENT_COLOR } }),
  },
  'PUT /api/admin/colors': { ...superadminOnly(200), call: () => ({ body: DEFAULT_COLOR_SETTINGS }) },
  'POST /api/admin/settings/logo': { ...superadminOnly(201), call: () => ({ image: true }) },
  'POST /api/admin/settings/favicon': { ...superadminOnly(201), call: () => ({ image: true }) },

  // The invitation page: the token is the credential, so a made-up one is refused alike for everyone.
  'GET /api/invitations/lookup': { ...publicRoute(404), call: () => ({ query: { token: 'not-a-token' } }) },
  'POST /api/invitations/accept': { ...signedIn(404), call: () => ({ body: { token: 'not-a-token' } }) },
  'POST /api/auth/register-invited': {
    ...publicRoute(404),
    call: () => ({
      body: {
        token: 'not-a-token',
        firstName: 'Matrix',
        lastName: 'Guest',
        password: 'correct horse battery',
      },
    }),
  },

  // Platform Admin → Users, Companies, Agents: superadmins only.
  'GET /api/admin/users': {
    ...superadminOnly(200),
    call: () => ({ query: { search: 'matrix', limit: '10' } }),
  },
  'POST /api/admin/users/invitations': {
    ...superadminOnly(201),
    call: (f) => ({ body: { name: 'Matrix Invitee', email: `${f.unique()}@example.com` } }),
  },
  'POST /api/admin/users/:id/password-reset': {
    ...superadminOnly(204),
    call: (f) => ({ params: memberParam(f) }),
  },
  // No change (the member is no superadmin): the allowed caller gets past every guard to a 200.
  'PATCH /api/admin/users/:id': {
    ...superadminOnly(200),
    call: (f) => ({ params: memberParam(f), body: { isSuperadmin: false } }),
  },
  'GET /api/admin/companies': superadminOnly(200),
  'POST /api/admin/companies': {
    ...superadminOnly(201),
    call: (f) => ({ body: { name: `Matrix company ${f.unique()}`, ownerEmail: f.memberEmail } }),
  },
  'GET /api/admin/companies/:id': { ...superadminOnly(200), call: (f) => ({ params: { id: f.companyId } }) },
  'GET /api/admin/companies/:id/members': {
    ...superadminOnly(200),
    call: (f) => ({ params: { id: f.companyId } }),
  },
  // Setting a limit left out changes nothing: the allowed caller gets past every guard to a 200.
  'PATCH /api/admin/companies/:id/quotas': {
    ...superadminOnly(200),
    call: (f) => ({ params: { id: f.companyId }, body: {} }),
  },
  'DELETE /api/admin/companies/:id': {
    ...superadminOnly(204),
    consumesFixtures: true,
    call: (f) => ({ params: { id: f.spareCompanyId } }),
  },
  // Turning a company's single sign-on off: the fixture company has none on, so the allowed caller gets
  // past every guard to the 404 that says so (sso-login.int-spec.ts turns a real one off).
  'POST /api/admin/companies/:id/sso/disable': {
    ...superadminOnly(404),
    call: (f) => ({ params: { id: f.companyId } }),
  },
  'GET /api/admin/agents': { ...superadminOnly(200), call: (f) => ({ query: { companyId: f.companyId } }) },

  // The audit log: all of it for superadmins; one company's entries for its owners and admins.
  'GET /api/admin/audit': {
    ...superadminOnly(200),
    call: () => ({ query: { action: 'auth.sign_in', limit: '10' } }),
  },
  'GET /api/company/activity': { ...companyManager(200), call: () => ({ query: { limit: '10' } }) },
};

/** The socket handshake: only a live session connects. */
export const SOCKET_CONNECT: Record<Identity, 'connects' | 'refused'> = {
  signedOut: 'refused',
  garbageToken: 'refused',
  revokedSession: 'refused',
  member: 'connects',
  admin: 'connects',
  owner: 'connects',
  otherCompany: 'connects',
  superadmin: 'connects',
};

export interface SocketEventAccess {
  rule: string;
  /** 'handled': the handler answers (acknowledgement without `error`); 'refused': error or no answer. */
  expect: Record<Identity, 'handled' | 'refused'>;
  payload: (f: Fixtures) => unknown;
}

/**
 * Client → server events (`@SubscribeMessage`), keyed `Gateway: event`. The gateway is server → client
 * only today, so this is empty; a handler added without a row fails the matrix test.
 */
export const SOCKET_EVENTS: Record<string, SocketEventAccess> = {};
