export interface ChatView {
  id: string;
  companyId: string;
  agentId: string;
  title: string;
  isArchived: boolean;
  lastMessage: string | null;
  lastMessageAt: string | null;
  /** True while the agent is answering a message of this chat. */
  pendingReply: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A user's rating of an agent's reply. */
export type MessageFeedback = 'like' | 'dislike';

export interface MessageView {
  id: string;
  chatId: string;
  senderId: string;
  senderType: 'user' | 'agent';
  content: string;
  timestamp: string;
  isVoiceMessage: boolean;
  /** On an agent's reply (text or voice turn): the user's like or dislike, if any. */
  feedback: MessageFeedback | null;
  /** With a dislike: the user's short reason, if they gave one. */
  feedbackReason?: string | null;
  /** Monotonic within the installation: cursors and gap detection use it. */
  seq: string;
  /**
   * On a streamed agent reply cut short (what came is stored): `stopped` by the user, `timeout` (the
   * agent stalled mid-stream), `error` (the agent sent an error chunk). Null otherwise.
   */
  interrupted?: 'stopped' | 'timeout' | 'error' | null;
  /** With `interrupted` 'error': the agent's own message (its error chunk). */
  interruptedReason?: string | null;
  /** Files sent with the message, in order; absent when it has none. */
  attachments?: MessageAttachment[];
  /**
   * 1, then one more per edit (a user message) or regenerated answer (a reply): the earlier versions
   * are read with GET /api/messages/:id/versions. Absent is 1.
   */
  version?: number;
}

/**
 * A version of a message (GET /api/messages/:id/versions): an earlier text of an edited user message, or
 * an earlier answer of a regenerated reply, or the shown one (`current`).
 */
export interface MessageVersionView {
  /** A reply's version keeps the id it had when shown. */
  id: string;
  version: number;
  content: string;
  timestamp: string;
  /** On a reply version: its rating, as it was (each version is rated on its own). */
  feedback: MessageFeedback | null;
  feedbackReason: string | null;
  interrupted: 'stopped' | 'timeout' | 'error' | null;
  interruptedReason: string | null;
  /** The shown version (the message itself). */
  current: boolean;
}

/** GET /api/messages/:id/versions: oldest first, the shown one last. */
export interface MessageVersions {
  messageId: string;
  versions: MessageVersionView[];
}

/** PATCH /api/messages/:id: the latest user message of a chat, with new text (its reply is asked again). */
export interface EditMessageRequest {
  content: string;
}

/**
 * POST /api/messages/:id/regenerate and PATCH /api/messages/:id: the user message (as now shown) whose
 * reply is being asked for again, and the reply it replaced (moved to its versions; null when there
 * was none: a failed reply).
 */
export interface ReplyRequested {
  message: MessageView;
  replacedReplyId: string | null;
  chat: ChatView;
}

/**
 * A file attached to a message (or uploaded for the next one). `url` is a signed link that works without
 * a session (for `<img>` and downloads) and expires within two hours: a fresh read gives a fresh one.
 */
export interface MessageAttachment {
  id: string;
  name: string;
  mimeType: string;
  size: number;
  /** `image`: re-encoded by us, shown inline; `file`: a card that downloads. */
  kind: 'image' | 'file';
  url: string;
  width?: number;
  height?: number;
}

/** The most files one message may carry. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

/**
 * A reply being streamed: the user message it answers (`message.delta`'s messageId) and its text so
 * far. A tab opened mid-stream shows it, then applies the deltas from `text.length` on.
 */
export interface StreamingReply {
  messageId: string;
  text: string;
}

/** POST /api/chats/:id/stop */
export interface StopReplyResult {
  /** False when no reply was pending (already stored, failed or stopped). */
  stopped: boolean;
}

/** GET /api/chats/:id/messages */
export interface MessagePage {
  /** Oldest first. */
  messages: MessageView[];
  /** With `before` or no cursor: older messages exist; with `after`: newer ones remain. */
  hasMore: boolean;
  pendingReply: boolean;
  /** While a pending reply streams: its text so far (null when none has come). */
  streamingReply?: StreamingReply | null;
}

/** GET /api/chats: one page of a list, newest first (updated_at, then id, both descending). */
export interface ChatListQuery {
  /** true: the Archived tab. */
  archived?: boolean;
  /** 50 by default, at most 200. */
  limit?: number;
  /** The `nextCursor` of the page before; absent for the first page. */
  cursor?: string;
}

/** Chats a page of GET /api/chats holds by default. */
export const CHAT_PAGE_SIZE = 50;

/** GET /api/chats */
export interface ChatPage {
  /** Newest first. */
  chats: ChatView[];
  /** Opaque: pass it as `cursor` for the next page; null when this page is the last. */
  nextCursor: string | null;
}

/** GET /api/chats/:id/messages: at most one cursor. */
export interface MessagePageCursor {
  /** seq cursor: messages older than this. */
  before?: string;
  /** seq cursor: messages newer than this (resync after a reconnect). */
  after?: string;
  /** 50 by default, at most 200. */
  limit?: number;
}

/** POST /api/chats */
export interface CreateChatRequest {
  agentId: string;
  title?: string;
}

/** PATCH /api/chats/:id */
export interface UpdateChatRequest {
  title?: string;
  isArchived?: boolean;
}

/** POST /api/chats/:id/messages */
export interface SendMessageRequest {
  /** Optional when `attachmentIds` has a file. */
  content: string;
  /** Uploads (POST /api/chats/:id/attachments) to send with the message, at most 10. */
  attachmentIds?: string[];
}

/** POST /api/messages: the first message with no active chat creates 'Chat with {agent}' too. */
export interface SendFirstMessageRequest extends SendMessageRequest {
  agentId: string;
}

export interface FirstMessageResult {
  chat: ChatView;
  message: MessageView;
}

/** The longest reason a thumbs down may carry. */
export const FEEDBACK_REASON_MAX = 500;

/**
 * PUT /api/messages/:id/feedback: rate an agent's reply (text or voice turn). `score` null takes the
 * rating back; `reason` is kept with a dislike only (ignored otherwise).
 */
export interface RateReplyRequest {
  score: MessageFeedback | null;
  reason?: string | null;
}
