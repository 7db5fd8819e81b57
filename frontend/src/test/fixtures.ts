import type { AgentView, ChatView, MessageView, User } from '../api/contracts';

export function chatView(overrides: Partial<ChatView> = {}): ChatView {
  return {
    id: 'chat-1',
    companyId: 'c1',
    agentId: 'default-agent',
    title: 'Chat with Assistant',
    isArchived: false,
    lastMessage: null,
    lastMessageAt: null,
    pendingReply: false,
    createdAt: '2024-05-01T10:00:00.000Z',
    updatedAt: '2024-05-01T10:00:00.000Z',
    ...overrides,
  };
}

export function messageView(overrides: Partial<MessageView> = {}): MessageView {
  return {
    id: 'm-1',
    chatId: 'chat-1',
    senderId: 'u1',
    senderType: 'user',
    content: 'Hello',
    timestamp: '2024-05-01T10:01:00.000Z',
    isVoiceMessage: false,
    feedback: null,
    seq: '1',
    ...overrides,
  };
}

export function agentView(overrides: Partial<AgentView> = {}): AgentView {
  return {
    id: 'default-agent',
    companyId: 'c1',
    name: 'Assistant',
    description: 'Your helpful AI assistant',
    avatar: '/placeholder.svg',
    webhook: null,
    defaultQuestions: [],
    elevenlabsAgentId: null,
    hasSigningSecret: false,
    callbackDeadlineMinutes: 10,
    sendFeedback: false,
    isDefault: true,
    isEditable: false,
    isActive: true,
    createdAt: '2024-05-01T09:00:00.000Z',
    ...overrides,
  };
}

export function userView(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    firstName: 'Ada',
    lastName: 'Lovelace',
    bio: '',
    avatar: '/placeholder.svg',
    isSuperadmin: false,
    emailVerified: true,
    pendingEmail: null,
    ...overrides,
  };
}
