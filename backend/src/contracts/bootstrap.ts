import type { AgentView } from './agents';
import type { AuthResponse } from './auth';
import type { ChatView, MessagePage } from './chats';
import type { CompanyMembership } from './companies';
import type { User } from './users';

/**
 * GET /api/bootstrap: what a signed-in page needs before its first screen, in one answer (it followed
 * the refresh, then GET /api/me, then the chat screen's own requests, one after the other).
 */
export interface BootstrapQuery {
  /** The company this browser last used; ignored when the user is no longer a member of it. */
  companyId?: string;
  /** Also the chat screen's opening data (the page being loaded is the chat). */
  chat?: boolean;
}

export interface BootstrapResponse {
  /** As GET /api/me. */
  user: User;
  companies: CompanyMembership[];
  /** Asked for with `chat=true` and the user has a company; else null. */
  chat: ChatBootstrap | null;
}

/** The chat screen as it opens: the Archived list is loaded when its tab is opened. */
export interface ChatBootstrap {
  /** The asked company when the user is a member of it, else their first company (as the client picks). */
  companyId: string;
  agents: AgentView[];
  /** The Active list's first page (as GET /api/chats), newest first. */
  activeChats: ChatView[];
  /** That page's nextCursor: null when it holds the whole Active list. */
  activeChatsCursor: string | null;
  /** The newest page of the first active chat, the one the screen opens (null when there is none). */
  firstChat: { chatId: string; page: MessagePage } | null;
  /**
   * The version of this data (read before it), for the socket's handshake (`SyncMarkers.chat`): the
   * server then says whether anything changed before the socket was in its rooms.
   */
  version: string;
  /** The largest file one upload may carry (MAX_ATTACHMENT_MB), for the message box's own check. */
  maxAttachmentBytes: number;
}

/**
 * POST /api/auth/session: the session check and the first screen's data in one round trip, for a
 * page that loads signed in (/session-preload.js). The refresh as POST /api/auth/refresh (the refresh
 * cookie is the credential and is rotated), then GET /api/bootstrap's answer for the user it names;
 * `bootstrap` is null when that part failed (the session stands: the client asks GET /api/bootstrap).
 */
export interface SessionBootstrapResponse extends AuthResponse {
  bootstrap: BootstrapResponse | null;
}
