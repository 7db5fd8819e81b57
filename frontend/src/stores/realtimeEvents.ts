import type { ClientEventMap, ClientEventName } from '../api/contracts';
import { useAgentsStore } from './agentsStore';
import { useChatStore } from './chatStore';
import { useCompanyStore } from './companyStore';

type CompanyEventName = Exclude<ClientEventName, 'session.revoked'>;

/**
 * Applies one server event to the stores, idempotently: every tab of the user receives every event,
 * including the tab whose request caused it, so the same message may arrive by answer and by event.
 * Returns false when the event was ignored (another company than the one on screen).
 */
export function applyRealtimeEvent<E extends CompanyEventName>(name: E, payload: ClientEventMap[E]): boolean {
  const companyId = useCompanyStore.getState().currentCompanyId;
  const chats = useChatStore.getState();
  if (!companyId || payload.companyId !== companyId || chats.companyId !== companyId) return false;
  const agents = useAgentsStore.getState();

  // The switch narrows on a widened copy: TypeScript does not narrow a generic payload by its name.
  const event = { name, payload } as CompanyEvent;
  switch (event.name) {
    case 'message.created': {
      const { chat, message } = event.payload;
      chats.upsertChat(chat);
      chats.addMessage(message);
      // The chat view is read in the same transaction as the message: it knows whether a reply is due.
      chats.setTyping(chat.id, message.senderType === 'user' ? chat.pendingReply : false);
      break;
    }
    case 'agent.typing':
      chats.setTyping(event.payload.chatId, event.payload.typing);
      break;
    case 'agent.reply_failed':
      chats.setTyping(event.payload.chatId, false);
      break;
    case 'chat.created':
    case 'chat.updated':
      chats.upsertChat(event.payload.chat);
      break;
    case 'chat.deleted':
      chats.removeChat(event.payload.chatId);
      break;
    case 'agent.created':
    case 'agent.updated':
      agents.upsertAgent(event.payload.agent);
      break;
    case 'agent.deleted': {
      const { agentId } = event.payload;
      // The server deletes the agent's chats with it (no chat.deleted per chat).
      const activeChat = chats.activeChatId
        ? [...chats.activeChats, ...chats.archivedChats].find((c) => c.id === chats.activeChatId)
        : null;
      chats.removeChatsOfAgent(agentId);
      if (activeChat?.agentId === agentId) chats.setActiveChat(null);
      agents.removeAgent(agentId);
      break;
    }
  }
  return true;
}

type CompanyEvent = {
  [E in CompanyEventName]: { name: E; payload: ClientEventMap[E] };
}[CompanyEventName];
