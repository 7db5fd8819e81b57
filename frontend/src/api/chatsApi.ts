import { inCompany } from './companyScope';
import type {
  ChatPage,
  ChatView,
  FirstMessageResult,
  MessagePage,
  MessagePageCursor,
  MessageVersions,
  MessageView,
  RateReplyRequest,
  ReplyRequested,
  UpdateChatRequest,
} from './contracts';
import type { StopReplyResult } from './contracts';
import { http } from './httpClient';

export const MESSAGE_PAGE_SIZE = 50;
/** Chats a page of the sidebar's lists holds. */
export const CHAT_PAGE_SIZE = 50;

const chatPath = (id: string) => `/api/chats/${encodeURIComponent(id)}`;
const messagePath = (id: string) => `/api/messages/${encodeURIComponent(id)}`;

function pageQuery(query: MessagePageCursor): string {
  const params = new URLSearchParams();
  params.set('limit', String(query.limit ?? MESSAGE_PAGE_SIZE));
  if (query.before) params.set('before', query.before);
  if (query.after) params.set('after', query.after);
  return params.toString();
}

export const chatsApi = {
  /** One page of the Active or Archived list, newest first; `cursor`: the page before's nextCursor. */
  list: (companyId: string, archived: boolean, cursor?: string | null) =>
    http.get<ChatPage>(
      `/api/chats?${new URLSearchParams({
        archived: String(archived),
        limit: String(CHAT_PAGE_SIZE),
        ...(cursor ? { cursor } : {}),
      }).toString()}`,
      inCompany(companyId),
    ),
  create: (companyId: string, agentId: string, title?: string) =>
    http.post<ChatView>('/api/chats', { agentId, title }, inCompany(companyId)),
  get: (companyId: string, id: string) => http.get<ChatView>(chatPath(id), inCompany(companyId)),
  update: (companyId: string, id: string, changes: UpdateChatRequest) =>
    http.patch<ChatView>(chatPath(id), changes, inCompany(companyId)),
  remove: (companyId: string, id: string) => http.delete<void>(chatPath(id), inCompany(companyId)),
  messages: (companyId: string, id: string, query: MessagePageCursor = {}) =>
    http.get<MessagePage>(`${chatPath(id)}/messages?${pageQuery(query)}`, inCompany(companyId)),
  send: (companyId: string, id: string, content: string, attachmentIds: string[] = []) =>
    http.post<MessageView>(
      `${chatPath(id)}/messages`,
      attachmentIds.length ? { content, attachmentIds } : { content },
      inCompany(companyId),
    ),
  /**
   * The first message with no active chat: the server creates 'Chat with {agent}' too. Files uploaded
   * before the chat existed (POST /api/attachments) go with it.
   */
  sendFirst: (companyId: string, agentId: string, content: string, attachmentIds: string[] = []) =>
    http.post<FirstMessageResult>(
      '/api/messages',
      attachmentIds.length ? { agentId, content, attachmentIds } : { agentId, content },
      inCompany(companyId),
    ),
  /** Stop: ends the chat's pending reply (what came of a streamed one is kept, marked stopped). */
  stopReply: (companyId: string, id: string) =>
    http.post<StopReplyResult>(`${chatPath(id)}/stop`, {}, inCompany(companyId)),
  /** Rates an agent's reply: like, dislike (with an optional reason), or null to take it back. */
  rateReply: (companyId: string, messageId: string, rating: RateReplyRequest) =>
    http.request<MessageView>(
      'PUT',
      `/api/messages/${encodeURIComponent(messageId)}/feedback`,
      inCompany(companyId, { body: rating }),
    ),
  /** Asks the agent again for the latest reply (`messageId`: that reply, or the message it answers). */
  regenerate: (companyId: string, messageId: string) =>
    http.post<ReplyRequested>(`${messagePath(messageId)}/regenerate`, {}, inCompany(companyId)),
  /** New text for the chat's latest message: its reply is asked for again from it. */
  editMessage: (companyId: string, messageId: string, content: string) =>
    http.patch<ReplyRequested>(messagePath(messageId), { content }, inCompany(companyId)),
  /** A message's versions, oldest first, the shown one last. */
  versions: (companyId: string, messageId: string) =>
    http.get<MessageVersions>(`${messagePath(messageId)}/versions`, inCompany(companyId)),
};
