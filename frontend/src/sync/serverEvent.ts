import type { ClientEventMap, ClientEventName } from '../api/contracts';

/** Events about a company's chats and agents (every one but the session's own). */
export type CompanyEventName = Exclude<ClientEventName, 'session.revoked'>;

/** One server event, its name narrowing its payload. */
export type ServerEvent = {
  [E in CompanyEventName]: { name: E; payload: ClientEventMap[E] };
}[CompanyEventName];
