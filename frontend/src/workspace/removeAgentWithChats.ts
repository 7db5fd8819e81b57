import { useAgentsStore } from '../stores/agentsStore';
import { useChatStore } from '../stores/chatStore';

/**
 * An agent is gone (deleted here, or the event from another tab): its chats go with it, as on the server
 * (which sends no chat.deleted per chat), and so does an open chat of it.
 */
export function removeAgentWithChats(agentId: string): void {
  const chats = useChatStore.getState();
  const activeChat = chats.activeChatId
    ? [...chats.activeChats, ...chats.archivedChats].find((c) => c.id === chats.activeChatId)
    : null;
  chats.removeChatsOfAgent(agentId);
  if (activeChat?.agentId === agentId) chats.setActiveChat(null);
  useAgentsStore.getState().removeAgent(agentId);
}
