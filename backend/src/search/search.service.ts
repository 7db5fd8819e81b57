import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '../common/company-scope';
import { ValidationFailedError } from '../common/domain-errors';
import type { SearchPage } from '../contracts/search';
import { SEARCH_PAGE_SIZE } from './dto/search.dto';
import { headlineSegments } from './headline-segments';
import { type SearchCursor, SearchRepository } from './search.repository';

export const BAD_SEARCH_CURSOR = 'cursor must be the nextCursor of a previous page';

/** The cursor is opaque to clients: base64url of [asOf ms, score, seq]. */
export function encodeSearchCursor(cursor: SearchCursor): string {
  return Buffer.from(JSON.stringify([cursor.asOf.getTime(), cursor.score, cursor.seq])).toString('base64url');
}

export function decodeSearchCursor(raw: string): SearchCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw new ValidationFailedError(BAD_SEARCH_CURSOR);
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw new ValidationFailedError(BAD_SEARCH_CURSOR);
  const [asOf, score, seq] = parsed as unknown[];
  const valid =
    typeof asOf === 'number' &&
    Number.isSafeInteger(asOf) &&
    asOf > 0 &&
    asOf < 8.64e15 &&
    typeof score === 'number' &&
    Number.isFinite(score) &&
    typeof seq === 'string' &&
    /^\d{1,18}$/.test(seq);
  if (!valid) throw new ValidationFailedError(BAD_SEARCH_CURSOR);
  return { asOf: new Date(asOf), score, seq };
}

/** Full-text search over one user's chats in one company (the spec: chats belong to their user). */
@Injectable()
export class SearchService {
  constructor(private readonly rows: SearchRepository) {}

  async search(
    scope: OwnerScope,
    query: { q: string; cursor?: string; limit?: number },
  ): Promise<SearchPage> {
    const limit = query.limit ?? SEARCH_PAGE_SIZE;
    const after = query.cursor ? decodeSearchCursor(query.cursor) : null;
    const asOf = after?.asOf ?? new Date();
    const hits = await this.rows.search(scope, query.q, { asOf, after, limit: limit + 1 });
    const page = hits.slice(0, limit);
    const last = page.at(-1);
    return {
      results: page.map((hit) => ({
        messageId: hit.messageId,
        seq: hit.seq,
        chatId: hit.chatId,
        chatTitle: hit.chatTitle,
        chatArchived: hit.chatArchived,
        agentId: hit.agentId,
        senderType: hit.senderType,
        isVoiceMessage: hit.isVoiceMessage,
        timestamp: hit.createdAt.toISOString(),
        segments: headlineSegments(hit.headline),
        files: hit.files,
      })),
      nextCursor:
        hits.length > limit && last ? encodeSearchCursor({ asOf, score: last.score, seq: last.seq }) : null,
    };
  }
}
