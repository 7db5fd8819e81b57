import type { AgentView } from './agents';
import type { ChatView, MessageView } from './chats';

/**
 * Every event the server pushes to browsers, with its payload: the one map shared by the gateway, the
 * worker's emitter and the client.
 */
export interface ClientEventMap {
  'message.created': { companyId: string; chatId: string; message: MessageView; chat: ChatView };
  'agent.typing': { companyId: string; chatId: string; typing: boolean };
  'agent.reply_failed': { companyId: string; chatId: string; messageId: string; reason: string };
  'chat.created': { companyId: string; chat: ChatView };
  'chat.updated': { companyId: string; chat: ChatView };
  'chat.deleted': { companyId: string; chatId: string };
  'agent.created': { companyId: string; agent: AgentView };
  'agent.updated': { companyId: string; agent: AgentView };
  'agent.deleted': { companyId: string; agentId: string };
  'session.revoked': { reason: string };
}

export type ClientEventName = keyof ClientEventMap;
