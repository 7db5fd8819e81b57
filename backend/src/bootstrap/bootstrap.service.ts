import { Inject, Injectable } from '@nestjs/common';
import { AgentsService } from '../agents/agents.service';
import { ChatsService } from '../chats/chats.service';
import { CompaniesService } from '../companies/companies.service';
import type { BootstrapResponse, ChatBootstrap } from '../contracts/bootstrap';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { CompanyMembership } from '../contracts/companies';
import { UsersService } from '../profiles/users.service';

/** The chat screen's first page of messages: as many as the client asks for when a chat opens. */
export const FIRST_PAGE_SIZE = 50;

/**
 * One answer for a signed-in page's first screen: the profile and companies (GET /api/me) and, for the
 * chat, what it shows first. Every part is read through the service that owns it, with the same
 * scoping (this user, a company they are a member of) as the route it replaces.
 */
@Injectable()
export class BootstrapService {
  constructor(
    private readonly users: UsersService,
    private readonly companies: CompaniesService,
    private readonly agents: AgentsService,
    private readonly chats: ChatsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `sessionId`: the caller's session; a company that requires single sign-on from it gets no chat
   * screen (its data is refused to a session not made through its provider).
   */
  async load(
    userId: string,
    query: { companyId?: string; chat?: boolean },
    sessionId?: string,
  ): Promise<BootstrapResponse> {
    // The chat data's version is read before the data (an older version can only cost the client a
    // needless reload, a newer one would hide a change): alongside the profile for the company asked
    // for, the usual case; used only if that is the company picked (scoped by user, it reveals nothing).
    const wanted = query.chat && query.companyId ? query.companyId : null;
    const [user, companies, early] = await Promise.all([
      this.users.profile(userId),
      this.companies.listForUser(userId, sessionId),
      wanted ? this.chats.syncVersion({ userId, companyId: wanted }) : null,
    ]);
    const company = pickCompany(companies, query.companyId);
    if (!query.chat || !company || company.ssoRequired) return { user, companies, chat: null };
    const scope = { userId, companyId: company.id };
    const version = company.id === wanted && early ? early : await this.chats.syncVersion(scope);
    return { user, companies, chat: await this.chatScreen(scope, version.version) };
  }

  private async chatScreen(
    scope: { userId: string; companyId: string },
    version: string,
  ): Promise<ChatBootstrap> {
    const [agents, active] = await Promise.all([this.agents.list(scope), this.chats.list(scope, {})]);
    const first = active.chats[0];
    const firstChat = first
      ? { chatId: first.id, page: await this.chats.messages(scope, first.id, { limit: FIRST_PAGE_SIZE }) }
      : null;
    return {
      companyId: scope.companyId,
      agents,
      activeChats: active.chats,
      activeChatsCursor: active.nextCursor,
      firstChat,
      version,
      maxAttachmentBytes: this.config.attachments.maxBytes,
    };
  }
}

/** The client's rule (companyStore.setCompanies): the remembered company while a member, else the first. */
export function pickCompany(companies: CompanyMembership[], wanted?: string): CompanyMembership | null {
  return companies.find((c) => c.id === wanted) ?? companies[0] ?? null;
}
