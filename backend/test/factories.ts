import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AgentEntity } from '../src/agents/agent.entity';
import { AgentsRepository, type NewAgent } from '../src/agents/agents.repository';
import { AgentsService } from '../src/agents/agents.service';
import { ChatsRepository } from '../src/chats/chats.repository';
import type { ReplyStatus } from '../src/chats/message.entity';
import { MessagesRepository } from '../src/chats/messages.repository';
import type { OwnerScope } from '../src/common/company-scope';
import { CompaniesService } from '../src/companies/companies.service';
import { UserEntity } from '../src/profiles/user.entity';
import type { ChatView, MessageView } from '../src/realtime/client-events';
import { uniqueEmail } from './app.test-util';

/**
 * Per-test rows for integration tests, written through the app's repositories (no raw SQL in tests):
 * each test makes what it needs and shares nothing with the others.
 */

/** A user who signed up with no password (a Google account, say): a row, no session. */
export async function newUser(
  app: INestApplicationContext,
  overrides: Partial<{ email: string; firstName: string; lastName: string }> = {},
): Promise<{ userId: string; email: string }> {
  const users = app.get(DataSource).getRepository(UserEntity);
  const user = await users.save(
    users.create({
      email: overrides.email ?? uniqueEmail(),
      passwordHash: null,
      firstName: overrides.firstName ?? 'Test',
      lastName: overrides.lastName ?? 'User',
    }),
  );
  return { userId: user.id, email: user.email };
}

/** A company owned by the user: the scope of that user in it. */
export async function newCompany(
  app: INestApplicationContext,
  owner: { userId: string },
  name = 'Test Company',
): Promise<OwnerScope> {
  const company = await app.get(CompaniesService).createWithOwner(owner.userId, name);
  return { userId: owner.userId, companyId: company.id };
}

/** A user with a company of their own. */
export async function newMember(app: INestApplicationContext): Promise<OwnerScope> {
  return newCompany(app, await newUser(app));
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
    isDefault: false,
    isEditable: true,
    isActive: true,
    ...overrides,
  });
}

/**
 * A chat with `messages` user messages 'm1'..'mN', oldest first, none waiting for a reply. Without an
 * agent, the user's default agent.
 */
export async function newChat(
  app: INestApplicationContext,
  scope: OwnerScope,
  options: { agent?: AgentEntity; title?: string; messages?: number } = {},
): Promise<ChatView> {
  const agent = options.agent ?? (await app.get(AgentsService).ensureDefault(scope));
  const chats = app.get(ChatsRepository);
  const chatId = await chats.insert(scope, agent.id, options.title ?? `Chat with ${agent.name}`);
  for (let i = 1; i <= (options.messages ?? 0); i++) {
    await newMessage(app, scope, chatId, { content: `m${i}` });
  }
  return (await chats.find(scope, chatId)) as ChatView;
}

/** A user message in a chat; `replyStatus: 'pending'` makes one that waits for its agent's reply. */
export async function newMessage(
  app: INestApplicationContext,
  scope: OwnerScope,
  chatId: string,
  options: { content?: string; replyStatus?: ReplyStatus | null } = {},
): Promise<MessageView> {
  const stored = await app.get(MessagesRepository).insert({
    chatId,
    senderId: scope.userId,
    senderType: 'user',
    content: options.content ?? 'hello',
    replyStatus: options.replyStatus ?? null,
  });
  return stored.message;
}
