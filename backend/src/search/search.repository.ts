import { Injectable } from '@nestjs/common';
import type { OwnerScope } from '../common/company-scope';
import type { SearchResultFile } from '../contracts/search';
import { Database } from '../database/database';
import { SEARCH_SQL } from './search-sql';

/** Where a ranked page starts: after (score, seq) of the previous page's last hit, scored as of `asOf`. */
export interface SearchCursor {
  asOf: Date;
  score: number;
  seq: string;
}

export interface SearchHit {
  messageId: string;
  seq: string;
  chatId: string;
  chatTitle: string;
  chatArchived: boolean;
  agentId: string;
  senderType: 'user' | 'agent';
  isVoiceMessage: boolean;
  createdAt: Date;
  /** Exact float8: the next page's cursor. */
  score: number;
  /** ts_headline output, the matching words between MATCH_START and MATCH_STOP. */
  headline: string;
  /** The message's files whose names match. */
  files: SearchResultFile[];
}

interface HitRow {
  id: string;
  seq: string;
  chat_id: string;
  title: string;
  is_archived: boolean;
  agent_id: string;
  sender_type: 'user' | 'agent';
  is_voice_message: boolean;
  created_at: Date;
  score: number;
  headline: string;
  files: SearchResultFile[];
}

@Injectable()
export class SearchRepository {
  constructor(private readonly db: Database) {}

  /** Up to `limit` hits, best first, after `cursor`; scored as of `asOf`. */
  async search(
    scope: OwnerScope,
    text: string,
    page: { asOf: Date; after: SearchCursor | null; limit: number },
  ): Promise<SearchHit[]> {
    const rows: HitRow[] = await this.db.query(SEARCH_SQL, [
      text,
      scope.userId,
      scope.companyId,
      page.asOf,
      page.after?.score ?? null,
      page.after?.seq ?? null,
      page.limit,
    ]);
    return rows.map((row) => ({
      messageId: row.id,
      seq: row.seq,
      chatId: row.chat_id,
      chatTitle: row.title,
      chatArchived: row.is_archived,
      agentId: row.agent_id,
      senderType: row.sender_type,
      isVoiceMessage: row.is_voice_message,
      createdAt: row.created_at,
      score: Number(row.score),
      headline: row.headline,
      files: row.files,
    }));
  }
}
