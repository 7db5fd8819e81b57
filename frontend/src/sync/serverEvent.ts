import type { ClientEventMap, ClientEventName } from '../api/contracts';

/**
 * Events about a company's chats and agents (every one but those about the socket's own session: its
 * end, and the catch-up on connecting, which the socket itself acts on).
 */
export type CompanyEventName = Exclude<ClientEventName, 'session.revoked' | 'sync.stale'>;

/** One server event, its name narrowing its payload. */
export type ServerEvent = {
  [E in CompanyEventName]: { name: E; payload: ClientEventMap[E] };
}[CompanyEventName];
