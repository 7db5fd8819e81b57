import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AgentEntity } from '../src/agents/agent.entity';
import { AgentsRepository, type NewAgent } from '../src/agents/agents.repository';
import { AgentsService } from '../src/agents/agents.service';
import { ChatsRepository } from '../src/chats/chats.repository';
import type { ReplyStatus } from '../src/chats/message.entity';
import { MessagesRepository } from '../src/chats/messages.repository';
import type { CompanyScope, OwnerScope } from '../src/common/company-scope';
import { CompaniesService } from '../src/companies/companies.service';
import { type CompanyRole, CompanyUserEntity } from '../src/companies/company-user.entity';
import { ChatEntity } from '../src/chats/chat.entity';
import { MessageEntity } from '../src/chats/message.entity';
import { InvitationsService } from '../src/invitations/invitations.service';
import { UserEntity } from '../src/profiles/user.entity';
import type { ChatView, MessageView } from '../src/realtime/client-events';
import { uniqueEmail } from './app.test-util';

/**
 * Per-test rows for integration tests, written through the app's repositories (no raw SQL in tests):
 * each test makes what it needs and shares nothing with the others.
 */

export interface TestUser {
  userId: string;
  email: string;
}

/** A user who signed up with no password (a Google account, say): a row, no session. */
export async function newUser(
  app: INestApplicationContext,
  overrides: Partial<{ email: string; firstName: string; lastName: string; isSuperadmin: boolean }> = {},
): Promise<TestUser> {
  const users = app.get(DataSource).getRepository(UserEntity);
  const user = await users.save(
    users.create({
      email: overrides.email ?? uniqueEmail(),
      passwordHash: null,
      firstName: overrides.firstName ?? 'Test',
      lastName: overrides.lastName ?? 'User',
      isSuperadmin: overrides.isSuperadmin ?? false,
    }),
  );
  return { userId: user.id, email: user.email };
}

/** A company owned by the user: the scope of that user in it. */
export async function newCompany(
  app: INestApplicationContext,
  owner: { userId: string },
  name = 'Test Company',
): Promise<CompanyScope> {
  const company = await app.get(CompaniesService).createWithOwner(owner.userId, name);
  return { userId: owner.userId, companyId: company.id, role: 'owner' };
}

/** A user with a company of their own, where they are the owner. */
export async function newMember(app: INestApplicationContext): Promise<CompanyScope> {
  return newCompany(app, await newUser(app));
}

/**
 * Makes a user a member of a company with a role, as an accepted invitation leaves it (without the
 * invitation, its mail and its events): the scope of that user in that company. `joinedAt` places the
 * member in the Company Users order; members joined at one instant tie on it.
 */
export async function newMembership(
  app: INestApplicationContext,
  company: { companyId: string },
  user: { userId: string },
  role: CompanyRole = 'user',
  options: { joinedAt?: Date } = {},
): Promise<CompanyScope> {
  const memberships = app.get(DataSource).getRepository(CompanyUserEntity);
  const row = await memberships.save(
    memberships.create({ companyId: company.companyId, userId: user.userId, role, invitedBy: null }),
  );
  if (options.joinedAt) await memberships.update(row.id, { createdAt: options.joinedAt });
  return { userId: user.userId, companyId: company.companyId, role };
}

/** Makes a user a superadmin, or no longer one (the Platform Admin users page's switch, without its checks). */
export async function setSuperadmin(
  app: INestApplicationContext,
  userId: string,
  value = true,
): Promise<void> {
  await app.get(DataSource).getRepository(UserEntity).update(userId, { isSuperadmin: value });
}

/** Whether the user is a superadmin (the first account of a fresh installation is one). */
export async function isSuperadmin(app: INestApplicationContext, userId: string): Promise<boolean> {
  const user = await app.get(DataSource).getRepository(UserEntity).findOneBy({ id: userId });
  return user?.isSuperadmin === true;
}

/** A custom agent (no save-time webhook check: tests may point it anywhere). */
export function newAgent(
  app: INestApplicationContext,
  scope: OwnerScope,
  overrides: Partial<NewAgent> = {},
): Promise<AgentEntity> {
  return app.get(AgentsRepository).insert(scope, {
    name: 'Test agent',
    description: 'Custom agent',
    webhook: 'https://example.com/hook',
    defaultQuestions: [],
    elevenlabsAgentId: null,
    signingSecret: null,
    callbackDeadlineMinutes: 10,
    sendFeedback: false,
    isDefault: false,
    isEditable: true,
    isActive: true,
    ...overrides,
  });
}

/**
 * A chat with `messages` user messages 'm1'..'mN', oldest first, none waiting for a reply. Without an
 * agent, the user's default agent. `archived` and `updatedAt` (its place in the chat list) are set
 * after the messages, so they are what the list sees.
 */
export async function newChat(
  app: INestApplicationContext,
  scope: OwnerScope,
  options: {
    agent?: AgentEntity;
    title?: string;
    messages?: number;
    archived?: boolean;
    updatedAt?: Date;
  } = {},
): Promise<ChatView> {
  const agent = options.agent ?? (await app.get(AgentsService).ensureDefault(scope));
  const chats = app.get(ChatsRepository);
  const chatId = await chats.insert(scope, agent.id, options.title ?? `Chat with ${agent.name}`);
  for (let i = 1; i <= (options.messages ?? 0); i++) {
    await newMessage(app, scope, chatId, { content: `m${i}` });
  }
  if (options.archived !== undefined || options.updatedAt) {
    await app
      .get(DataSource)
      .getRepository(ChatEntity)
      .update(chatId, {
        ...(options.archived !== undefined ? { isArchived: options.archived } : {}),
        ...(options.updatedAt ? { updatedAt: options.updatedAt } : {}),
      });
  }
  return (await chats.find(scope, chatId)) as ChatView;
}

/**
 * A user message in a chat; `replyStatus: 'pending'` makes one that waits for its agent's reply.
 * `createdAt` dates it back (how old a search hit or a lost reply is); the view returned keeps the time
 * it was stored at.
 */
export async function newMessage(
  app: INestApplicationContext,
  scope: OwnerScope,
  chatId: string,
  options: { content?: string; replyStatus?: ReplyStatus | null; createdAt?: Date } = {},
): Promise<MessageView> {
  const stored = await app.get(MessagesRepository).insert({
    chatId,
    senderId: scope.userId,
    senderType: 'user',
    content: options.content ?? 'hello',
    replyStatus: options.replyStatus ?? null,
  });
  if (options.createdAt) await dateMessage(app, stored.message.id, options.createdAt);
  return stored.message;
}

/** Dates a stored message back, as if it had been sent at `createdAt`. */
export async function dateMessage(
  app: INestApplicationContext,
  messageId: string,
  createdAt: Date,
): Promise<void> {
  await app.get(DataSource).getRepository(MessageEntity).update(messageId, { createdAt });
}

/**
 * A pending invitation from a manager, made the way Invite User makes it (mailed, audited, pushed):
 * its id, address and the token of the manager's copy of the link.
 */
export async function newInvitation(
  app: INestApplicationContext,
  manager: CompanyScope,
  options: { email?: string; role?: 'admin' | 'user' } = {},
): Promise<{ id: string; email: string; token: string }> {
  const email = options.email ?? uniqueEmail('invited');
  const { invitation, link } = await app
    .get(InvitationsService)
    .create(manager, { email, role: options.role ?? 'user' });
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return { id: invitation.id, email: invitation.email, token };
}
