import { useAgentsStore } from '../stores/agentsStore';
import { useChatStore } from '../stores/chatStore';
import { useStreamingStore } from '../stores/streamingStore';
import { useCompanyStore } from '../stores/companyStore';
import { removeAgentWithChats } from './removeAgentWithChats';
import { applyCompanyAdminEvent, isCompanyAdminEvent } from './applyCompanyAdminEvent';
import { parseAppearance, useAppearanceStore } from '../stores/appearanceStore';
import type { ServerEvent } from '../sync/serverEvent';
import { notifyInsightsTick } from '../sync/insightsTicks';

/**
 * Applies one server event to the stores, idempotently: every tab of the user receives every event,
 * including the tab whose request caused it, so the same message may arrive by answer and by event.
 * Returns false when the event was ignored (another company than the one on screen).
 * The sync layer calls this, handed it at start (sync/dispatch.ts: it also replays the event over
 * answers in flight).
 */
export function applyServerEvent(event: ServerEvent): boolean {
  // The installation's look, for every screen whatever the company.
  if (event.name === 'platform.appearance_updated') {
    const appearance = parseAppearance(event.payload);
    if (appearance) useAppearanceStore.getState().setAppearance(appearance);
    return appearance !== null;
  }
  // An open Insights page reads its numbers again (the page checks the company).
  if (event.name === 'insights.tick') {
    notifyInsightsTick(event.payload.companyId);
    return true;
  }
  // Membership and administration events concern every company of the user, not only the chat on screen.
  if (isCompanyAdminEvent(event)) return applyCompanyAdminEvent(event);
  const companyId = useCompanyStore.getState().currentCompanyId;
  const chats = useChatStore.getState();
  if (!companyId || event.payload.companyId !== companyId || chats.companyId !== companyId) return false;
  const agents = useAgentsStore.getState();

  switch (event.name) {
    case 'message.created': {
      const { chat, message } = event.payload;
      chats.upsertChat(chat, true);
      chats.addMessage(message);
      // The chat view is read in the same transaction as the message: it knows whether a reply is due.
      chats.setTyping(chat.id, message.senderType === 'user' ? chat.pendingReply : false);
      // The stored reply replaces the streamed text.
      if (message.senderType === 'agent') useStreamingStore.getState().clear(chat.id);
      break;
    }
    case 'message.updated':
      chats.addMessage(event.payload.message);
      break;
    case 'message.versioned': {
      // The reply is asked for again: its stream (if a stopped one lingers) starts over.
      useStreamingStore.getState().clear(event.payload.chatId);
      chats.applyVersioned(event.payload.chat, event.payload.message, event.payload.replacedReplyId);
      break;
    }
    case 'message.delta':
      useStreamingStore.getState().applyDelta(event.payload);
      break;
    case 'agent.typing':
      chats.setTyping(event.payload.chatId, event.payload.typing);
      if (!event.payload.typing) useStreamingStore.getState().clear(event.payload.chatId);
      break;
    case 'agent.activity':
      useStreamingStore.getState().setTool(event.payload);
      break;
    case 'agent.reply_failed':
      chats.setTyping(event.payload.chatId, false);
      useStreamingStore.getState().clear(event.payload.chatId);
      break;
    case 'chat.created':
    case 'chat.updated':
      chats.upsertChat(event.payload.chat, true);
      break;
    case 'chat.deleted':
      chats.removeChat(event.payload.chatId);
      break;
    case 'agent.created':
    case 'agent.updated':
      agents.upsertAgent(event.payload.agent);
      break;
    case 'agent.deleted':
      removeAgentWithChats(event.payload.agentId);
      break;
  }
  return true;
}
