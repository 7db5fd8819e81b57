import { Injectable } from '@nestjs/common';
import { PLATFORM_PAGE_SIZE, type PlatformAgentPage } from '../contracts/platform-admin';
import { PlatformAgentsRepository } from './agents.repository';
import { parseTimeCursor } from './companies.service';
import { decodeCursor, encodeCursor } from './users.service';

/** Platform Admin → Agents: every agent of every company, read-only (webhook by host only, no secrets). */
@Injectable()
export class PlatformAgentsService {
  constructor(private readonly agents: PlatformAgentsRepository) {}

  async list(query: { companyId?: string; cursor?: string; limit?: number }): Promise<PlatformAgentPage> {
    const limit = query.limit ?? PLATFORM_PAGE_SIZE;
    const after = parseTimeCursor(decodeCursor(query.cursor));
    const rows = await this.agents.page({ companyId: query.companyId, after, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      agents: page.map(({ cursorKey: _cursorKey, ...view }) => view),
      nextCursor: rows.length > limit && last ? encodeCursor(`${last.cursorKey}|${last.id}`) : null,
    };
  }
}
