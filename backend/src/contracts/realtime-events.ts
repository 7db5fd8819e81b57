import type { AgentView } from './agents';
import type { ChatView, MessageView } from './chats';
import type { MemberView } from './company-admin';
import type { InvitationView } from './invitations';
import type { PlatformAppearance } from './platform-appearance';

/**
 * Every event the server pushes to browsers, with its payload: the one map shared by the gateway, the
 * worker's emitter and the client.
 */
export interface ClientEventMap {
  'message.created': { companyId: string; chatId: string; message: MessageView; chat: ChatView };
  /** A stored message changed (a voice turn's rating): to the user's own room. */
  'message.updated': { companyId: string; chatId: string; message: MessageView };
  /**
   * The reply to `message` (a user message) is being asked for again, after a regenerate or an edit of
   * `message`: tabs show `message` as it now is, drop the reply `replacedReplyId` (moved to its versions;
   * null for a failed reply) and wait for the new one like a first reply (`agent.typing` follows).
   */
  'message.versioned': {
    companyId: string;
    chatId: string;
    message: MessageView;
    replacedReplyId: string | null;
    chat: ChatView;
  };
  'agent.typing': { companyId: string; chatId: string; typing: boolean };
  /**
   * A piece of a streamed reply, in order. `messageId` is the user message the reply answers (the
   * stored reply gets its own id; `message.created` ends the stream); `offset` is the length of the
   * text before this piece, so a piece seen twice (or already in a page's `streamingReply`) is skipped.
   */
  'message.delta': { companyId: string; chatId: string; messageId: string; text: string; offset: number };
  /**
   * What the agent is doing while it answers `messageId` (the user message): `tool` is the tool an n8n
   * AI Agent started using (shown as "using {tool}…" under the typing indicator), null when it is done
   * with it. A live status only: never stored, never part of the reply's text.
   */
  'agent.activity': { companyId: string; chatId: string; messageId: string; tool: string | null };
  'agent.reply_failed': { companyId: string; chatId: string; messageId: string; reason: string };
  'chat.created': { companyId: string; chat: ChatView };
  'chat.updated': { companyId: string; chat: ChatView };
  'chat.deleted': { companyId: string; chatId: string };
  'agent.created': { companyId: string; agent: AgentView };
  'agent.updated': { companyId: string; agent: AgentView };
  'agent.deleted': { companyId: string; agentId: string };
  'session.revoked': { reason: string };
  /** To `company:{id}:managers`. `updated` also covers resent, accepted and expired. */
  'invitation.created': { companyId: string; invitation: InvitationView };
  'invitation.updated': { companyId: string; invitation: InvitationView };
  'invitation.deleted': { companyId: string; invitationId: string };
  /** To `company:{id}:managers`. */
  'member.joined': { companyId: string; member: MemberView };
  /** To `company:{id}:managers` and to the member's own `user:{id}` room (their role and menu change). */
  'member.updated': { companyId: string; member: MemberView };
  /**
   * To `company:{id}:managers` and to the removed member's `user:{id}` room: their sockets have left the
   * company's rooms; the client switches to another company of theirs.
   */
  'member.removed': { companyId: string; userId: string };
  /**
   * To the sessions of a company's members when single sign-on or "members must use SSO" changed:
   * `required` says whether the company now refuses its data to this session (its sockets have left the
   * company's rooms, or joined them again); the client shows the single sign-on screen, or the company.
   */
  'company.sso_required': { companyId: string; required: boolean };
  /**
   * To `company:{id}:managers`: the company's Insights counters moved (messages, replies, failures or
   * ratings stored). Coalesced: at most one per company every few seconds from each process.
   */
  'insights.tick': { companyId: string };
  /** To `company:{id}` (every member). */
  'company.updated': { companyId: string; name: string };
  /** To the platform room (every signed-in socket): a superadmin saved settings or colours. */
  'platform.appearance_updated': PlatformAppearance;
  /**
   * A platform administrator deleted the company: to each former member's `user:{id}` room, after their
   * sockets have left the company's rooms. The client drops the company and switches to another one.
   */
  'company.deleted': { companyId: string };
  /**
   * To the one socket that just connected with `SyncMarkers` in its handshake, once it is in its rooms:
   * the topics whose data changed since the client loaded it (it reloads those). Never sent when none did.
   */
  'sync.stale': { topics: MarkedTopic[] };
}

export type ClientEventName = keyof ClientEventMap;

/** What a client's first data may be marked with, so that connecting does not reload it for nothing. */
export type MarkedTopic = 'chat' | 'appearance';

/**
 * `auth.markers` of a socket's first handshake after a page load: the versions of the data the page
 * loaded before its socket was up. The server answers with `sync.stale` naming the topics that differ.
 */
export interface SyncMarkers {
  /** The chat screen's data of one company: `ChatBootstrap.version` from the answer it came in. */
  chat?: { companyId: string; version: string };
  /** The appearance loaded: its `updatedAt` (null: none was ever saved). */
  appearance?: string | null;
}
