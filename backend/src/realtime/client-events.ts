/**
 * The socket event map and the views it carries live in `contracts/` (shared with the frontend);
 * re-exported here for the gateway, the publishers and the services that already import them from here.
 */
export type { AgentView } from '../contracts/agents';
export type { ChatView, MessageView } from '../contracts/chats';
export type { ClientEventMap, ClientEventName } from '../contracts/realtime-events';
