import { Injectable } from '@nestjs/common';
import { ChatsService } from '../chats/chats.service';
import { isUuid } from '../common/uuid';
import type { MarkedTopic, SyncMarkers } from '../contracts/realtime-events';
import { AppearanceService } from '../platform-admin/appearance.service';

/** Longer than any version we hand out (an md5, an ISO date): anything longer is not one of ours. */
const MAX_VERSION_LENGTH = 64;

const isVersion = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_VERSION_LENGTH;

/**
 * The markers of a handshake's `auth.markers`, as far as they are well formed; null when none is. It
 * comes from the client as it likes: a part that is not what a client of ours sends is dropped (that
 * topic is then not answered for, which only a hand-made client would notice), never an error.
 */
export function parseSyncMarkers(auth: unknown): SyncMarkers | null {
  const raw = (auth as { markers?: unknown } | null | undefined)?.markers;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const { chat, appearance } = raw as { chat?: unknown; appearance?: unknown };
  const markers: SyncMarkers = {};
  if (chat && typeof chat === 'object') {
    const { companyId, version } = chat as { companyId?: unknown; version?: unknown };
    if (typeof companyId === 'string' && isUuid(companyId) && isVersion(version))
      markers.chat = { companyId, version };
  }
  if (appearance === null || isVersion(appearance)) markers.appearance = appearance;
  return markers.chat || markers.appearance !== undefined ? markers : null;
}

/**
 * The catch-up after a socket connects: its page loaded data over HTTP before the socket was in its
 * rooms, and an event published between the two reached nobody. The client sends the versions of what
 * it loaded; read again once the socket is in its rooms, a version that differs names a topic to
 * reload. Nothing here runs per message or per event: a handshake with markers costs one read each.
 */
@Injectable()
export class CatchUpService {
  constructor(
    private readonly chats: ChatsService,
    private readonly appearance: AppearanceService,
  ) {}

  /**
   * The topics of `markers` whose data is no longer as the client loaded it. `isMember`: the chat marker
   * is answered only for a company the user is a member of (it is ignored otherwise), and its read is
   * scoped by that user as well. A read that fails names its topic: a needless reload, not a missed change.
   */
  async staleTopics(
    userId: string,
    markers: SyncMarkers,
    isMember: (companyId: string) => boolean,
  ): Promise<MarkedTopic[]> {
    const chat = markers.chat && isMember(markers.chat.companyId) ? markers.chat : null;
    const [chatStale, appearanceStale] = await Promise.all([
      chat
        ? this.chats.syncVersion({ userId, companyId: chat.companyId }).then(
            // A reply being waited for streams text the version cannot follow: reload, as before.
            (now) => now.pending || now.version !== chat.version,
            () => true,
          )
        : false,
      markers.appearance !== undefined
        ? this.appearance.get().then(
            (now) => now.updatedAt !== markers.appearance,
            () => true,
          )
        : false,
    ]);
    const topics: MarkedTopic[] = [];
    if (chatStale) topics.push('chat');
    if (appearanceStale) topics.push('appearance');
    return topics;
  }
}
