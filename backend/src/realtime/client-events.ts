/**
 * Every event the server pushes to browsers, with its payload: the one map shared by the gateway, the
 * worker's emitter and the client (frontend imports these types).
 */
export interface AgentView {
  /** 'default-agent' for the default agent of the user and company. */
  id: string;
  companyId: string;
  name: string;
  description: string;
  avatar: string;
  /** Null for the default agent (it uses the installation's default webhook). */
  webhook: string | null;
  defaultQuestions: string[];
  elevenlabsAgentId: string | null;
  hasSigningSecret: boolean;
  isDefault: boolean;
  isEditable: boolean;
  isActive: boolean;
  createdAt: string;
}

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

export interface MessageView {
  id: string;
  chatId: string;
  senderId: string;
  senderType: 'user' | 'agent';
  content: string;
  timestamp: string;
  isVoiceMessage: boolean;
  /** Monotonic within the installation: cursors and gap detection use it. */
  seq: string;
}

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
