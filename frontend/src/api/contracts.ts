/**
 * The agents/chats/messages payloads and the socket event map. The one source is the backend's
 * realtime/client-events.ts (types only, through the `@contracts` alias); this file only re-exports.
 */
export type {
  AgentView,
  ChatView,
  ClientEventMap,
  ClientEventName,
  MessageView,
} from '@contracts/client-events';
