import { DataSource } from 'typeorm';
import { useServiceContext } from '../../test/service-context';
import type { OwnerScope } from '../common/company-scope';
import { AGENT_INACTIVE, CHAT_ARCHIVED, CHAT_NOT_FOUND, ChatsService, REPLY_PENDING } from './chats.service';
import { SWEEP_EVERY_MS } from './jobs/stale-reply.sweeper';
import type { PendingReply } from './messages.repository';

describe('chat rules (ChatsService on real PostgreSQL, no HTTP)', () => {
  const ctx = useServiceContext();
  let chats: ChatsService;
  beforeAll(() => (chats = ctx.get(ChatsService)));

  const historyOf = async (scope: OwnerScope, chatId: string) =>
    (await chats.messages(scope, chatId, {})).messages.map((m) => m.content);
  const jobsFor = (messageId: string) =>
    ctx.jobs.held.filter((j) => (j.data as { messageId: string }).messageId === messageId);

  it("stores a user's message, queues one reply job for it and tells that user's tabs", async () => {
    const me = await ctx.newMember();
    const chat = await ctx.newChat(me);
    const message = await chats.send(me, chat.id, '  hello  ');
    expect(message).toMatchObject({ content: 'hello', senderType: 'user', chatId: chat.id });
    expect(jobsFor(message.id)).toEqual([
      {
        name: 'agent.reply',
        data: { messageId: message.id },
        options: { jobId: message.id, attempts: 3, prefetched: expect.objectContaining({ round: 0 }) },
      },
    ]);
    expect(ctx.events.eventsOf(me.userId)).toEqual(['message.created', 'agent.typing']);
    expect((await chats.get(me, chat.id)).pendingReply).toBe(true);
    // The view the send answers with (and tells) is the message as read back.
    expect((await chats.messages(me, chat.id, {})).messages).toEqual([message]);
    const told = ctx.events.sent
      .filter((e) => e.userId === me.userId && e.event === 'message.created')
      .map((e) => e.payload);
    expect(told).toEqual([expect.objectContaining({ message, chat: (await chats.list(me, {})).chats[0] })]);
  });

  it.each([
    ['the default agent', false],
    ['a signed agent with its own deadline that takes files inline', true],
  ])("hands its reply job's first attempt what the job would read itself (%s)", async (_, custom) => {
    const me = await ctx.newMember();
    const agent = custom
      ? await ctx.newAgent(me, {
          signingSecret: 'whsec_snapshot',
          callbackDeadlineMinutes: 7,
          sendFilesInline: true,
        })
      : undefined;
    const chat = await ctx.newChat(me, { agent });
    const message = await chats.send(me, chat.id, 'hello');
    const prefetched = jobsFor(message.id)[0].options?.prefetched as PendingReply;
    const read = (await chats.pendingReplyContext(message.id)) as PendingReply;
    // Each reads the callback deadline from the database's clock: the send's, a moment earlier.
    const readExpiry = read.agent?.callbackExpiresAt as number;
    const snapshotExpiry = prefetched.agent?.callbackExpiresAt as number;
    expect(snapshotExpiry).toBeLessThanOrEqual(readExpiry);
    expect(snapshotExpiry).toBeGreaterThan(readExpiry - 5_000);
    expect(prefetched).toEqual({
      ...read,
      agent: { ...read.agent, callbackExpiresAt: snapshotExpiry },
    });
    expect(read.agent).toMatchObject(
      custom
        ? { signingSecret: 'whsec_snapshot', callbackDeadlineMinutes: 7, sendFilesInline: true }
        : { isDefault: true },
    );
  });

  it('hands no snapshot over for a message sent inside a transaction (a first message, files)', async () => {
    const me = await ctx.newMember();
    const agent = await ctx.newAgent(me);
    const { message } = await chats.sendFirst(me, agent.id, 'hi');
    expect(jobsFor(message.id)[0].options).toEqual({ jobId: message.id, attempts: 3 });
  });

  it('refuses a message in an archived chat and stores nothing', async () => {
    const me = await ctx.newMember();
    const chat = await ctx.newChat(me);
    await chats.update(me, chat.id, { isArchived: true });
    await expect(chats.send(me, chat.id, 'hi')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: CHAT_ARCHIVED,
    });
    expect(await historyOf(me, chat.id)).toEqual([]);
    expect(ctx.events.eventsOf(me.userId)).toEqual(['chat.updated']);
  });

  it('refuses a second message while the reply to the first is pending, and takes one once it came', async () => {
    const me = await ctx.newMember();
    const chat = await ctx.newChat(me);
    const first = await chats.send(me, chat.id, 'first');
    await expect(chats.send(me, chat.id, 'second')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: REPLY_PENDING,
    });
    expect(await historyOf(me, chat.id)).toEqual(['first']);
    await chats.storeReply(first.id, 'an answer');
    // The reply's view and its chat's, as told, are what a read back gives.
    const told = ctx.events.sent.filter((e) => e.userId === me.userId && e.event === 'message.created');
    expect(told[told.length - 1].payload).toEqual(
      expect.objectContaining({
        message: (await chats.messages(me, chat.id, {})).messages[1],
        chat: (await chats.list(me, {})).chats[0],
      }),
    );
    await chats.send(me, chat.id, 'second');
    expect(await historyOf(me, chat.id)).toEqual(['first', 'an answer', 'second']);
  });

  it('of two sends at once to one chat, the one that waited for the chat lock is refused', async () => {
    const me = await ctx.newMember();
    const chat = await ctx.newChat(me);
    const db = ctx.get(DataSource);
    const first = db.createQueryRunner();
    await first.connect();
    try {
      // The first send, caught between storing its message and committing: the chat row locked.
      await first.startTransaction();
      await first.query('SELECT id FROM chats WHERE id = $1 FOR UPDATE', [chat.id]);
      await first.query(
        `INSERT INTO messages (chat_id, sender_id, sender_type, content, reply_status)
         VALUES ($1, $2, 'user', 'first', 'pending')`,
        [chat.id, me.userId],
      );
      const second = chats.send(me, chat.id, 'second');
      second.catch(() => undefined);
      // The second waits for the lock; its statement began before the first message was committed.
      for (let i = 0; i < 100; i++) {
        const waiting = (await db.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE OF c%'`,
        )) as unknown[];
        if (waiting.length) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await first.commitTransaction();
      await expect(second).rejects.toMatchObject({ code: 'CONFLICT', message: REPLY_PENDING });
    } finally {
      await first.release();
    }
    expect(await historyOf(me, chat.id)).toEqual(['first']);
  });

  it('refuses a message to an inactive agent', async () => {
    const me = await ctx.newMember();
    const agent = await ctx.newAgent(me, { isActive: false });
    const chat = await ctx.newChat(me, { agent });
    await expect(chats.send(me, chat.id, 'hi')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: AGENT_INACTIVE,
    });
    expect(await historyOf(me, chat.id)).toEqual([]);
    expect(ctx.events.eventsOf(me.userId)).toEqual([]);
  });

  it('a first message to an inactive agent leaves no chat and pushes nothing', async () => {
    const me = await ctx.newMember();
    const agent = await ctx.newAgent(me, { isActive: false });
    await expect(chats.sendFirst(me, agent.id, 'hi')).rejects.toMatchObject({ message: AGENT_INACTIVE });
    expect((await chats.list(me, {})).chats).toEqual([]);
    expect(ctx.events.eventsOf(me.userId)).toEqual([]);
  });

  it('a first message creates the chat and the message together, then tells the user once', async () => {
    const me = await ctx.newMember();
    const agent = await ctx.newAgent(me, { name: 'Helper' });
    const { chat, message } = await chats.sendFirst(me, agent.id, 'hi');
    expect(chat).toMatchObject({ title: 'Chat with Helper', lastMessage: 'hi', pendingReply: true });
    expect((await chats.list(me, {})).chats).toEqual([chat]);
    expect(jobsFor(message.id)).toHaveLength(1);
    expect(ctx.events.eventsOf(me.userId)).toEqual(['chat.created', 'message.created', 'agent.typing']);
  });

  it('queues again a pending reply whose job was lost, and only that one', async () => {
    const me = await ctx.newMember();
    const lostChat = await ctx.newChat(me);
    const lost = await chats.send(me, lostChat.id, 'my job was flushed');
    const queued = await chats.send(me, (await ctx.newChat(me)).id, 'my job is still queued');
    // Redis flushed: the first message's job is gone, the second's is still there.
    ctx.jobs.held.splice(ctx.jobs.held.indexOf(jobsFor(lost.id)[0]), 1);
    // Old enough to count as lost rather than slow to start.
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await ctx.dateMessage(lost.id, aMinuteAgo);
    await ctx.dateMessage(queued.id, aMinuteAgo);
    await chats.requeueLostReplies();
    expect(jobsFor(lost.id)).toHaveLength(1);
    expect(jobsFor(queued.id)).toHaveLength(1);
    await chats.storeReply(lost.id, 'answered once');
    await chats.storeReply(lost.id, 'answered twice?');
    expect(await historyOf(me, lostChat.id)).toEqual(['my job was flushed', 'answered once']);
  });

  it('asks for the stale-reply sweep as one repeated job, not a timer per process', () => {
    const sweeps = ctx.jobs.schedules.filter((s) => s.name === 'replies.sweep-stale');
    expect(sweeps).toEqual([{ name: 'replies.sweep-stale', everyMs: SWEEP_EVERY_MS }]);
  });

  it('pages long histories by cursor, newest first, and resyncs after a known message', async () => {
    const me = await ctx.newMember();
    const chat = await ctx.newChat(me, { messages: 120 });
    const contents = (page: { messages: Array<{ content: string }> }) => page.messages.map((m) => m.content);
    const first = await chats.messages(me, chat.id, { limit: 50 });
    expect(first.hasMore).toBe(true);
    expect(contents(first).slice(-2)).toEqual(['m119', 'm120']);
    const second = await chats.messages(me, chat.id, { limit: 50, before: first.messages[0].seq });
    expect(second.messages[0].content).toBe('m21');
    const third = await chats.messages(me, chat.id, { limit: 50, before: second.messages[0].seq });
    expect(third.messages).toHaveLength(20);
    expect(third.hasMore).toBe(false);
    const since = await chats.messages(me, chat.id, { after: first.messages.at(-3)?.seq });
    expect(contents(since)).toEqual(['m119', 'm120']);
    // The largest seq PostgreSQL's bigint holds is a position past the end, not an error.
    expect((await chats.messages(me, chat.id, { after: '9223372036854775807' })).messages).toEqual([]);
  });

  it("never reaches another user's chat, whatever it is asked", async () => {
    const owner = await ctx.newMember();
    const stranger = await ctx.newMember();
    const chat = await ctx.newChat(owner, { messages: 2 });
    const notFound = { code: 'NOT_FOUND', message: CHAT_NOT_FOUND };
    await expect(chats.get(stranger, chat.id)).rejects.toMatchObject(notFound);
    await expect(chats.send(stranger, chat.id, 'x')).rejects.toMatchObject(notFound);
    await expect(chats.messages(stranger, chat.id, {})).rejects.toMatchObject(notFound);
    await expect(chats.update(stranger, chat.id, { title: 'pwned' })).rejects.toMatchObject(notFound);
    await expect(chats.remove(stranger, chat.id)).rejects.toMatchObject(notFound);
    // The owner's user id with the stranger's company is not the owner either.
    const mixed = { userId: owner.userId, companyId: stranger.companyId };
    await expect(chats.get(mixed, chat.id)).rejects.toMatchObject(notFound);
    expect(await historyOf(owner, chat.id)).toEqual(['m1', 'm2']);
    expect(ctx.events.eventsOf(stranger.userId)).toEqual([]);
  });
});
