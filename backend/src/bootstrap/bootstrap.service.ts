import { Injectable } from '@nestjs/common';
import { AgentsService } from '../agents/agents.service';
import { ChatsService } from '../chats/chats.service';
import { CompaniesService } from '../companies/companies.service';
import type { BootstrapResponse, ChatBootstrap } from '../contracts/bootstrap';
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
  ) {}

  async load(userId: string, query: { companyId?: string; chat?: boolean }): Promise<BootstrapResponse> {
    const [user, companies] = await Promise.all([
      this.users.profile(userId),
      this.companies.listForUser(userId),
    ]);
    const company = pickCompany(companies, query.companyId);
    const chat = query.chat && company ? await this.chatScreen({ userId, companyId: company.id }) : null;
    return { user, companies, chat };
  }

  private async chatScreen(scope: { userId: string; companyId: string }): Promise<ChatBootstrap> {
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
    };
  }
}

/** The client's rule (companyStore.setCompanies): the remembered company while a member, else the first. */
export function pickCompany(companies: CompanyMembership[], wanted?: string): CompanyMembership | null {
  return companies.find((c) => c.id === wanted) ?? companies[0] ?? null;
}
