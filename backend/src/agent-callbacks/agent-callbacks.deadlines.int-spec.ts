import http from 'node:http';
import request from 'supertest';
import { registerUser } from '../../test/app.test-util';
import { as } from '../../test/auth';
import { dateMessage } from '../../test/factories';
import { REPLY_DEADLINE_RULE } from '../agents/dto/agent.dto';
import type { ChatView, MessageView } from '../realtime/client-events';
import { AgentCallbackWaitEntity } from './agent-callback-wait.entity';
import {
  CALLBACK_ALREADY_USED,
  CALLBACK_EXPIRED,
  CALLBACK_MESSAGE_GONE,
  CALLBACK_REPLY_FAILED,
  CALLBACK_REPLY_STOPPED,
} from './agent-callbacks.service';
import { callbackTokenKey, verifyCallbackToken } from './callback-token';
import { useCallbackApp } from '../../test/agent-callbacks.test-util';

/**
 * The wait for a callback ends: at the agent's deadline (the sweep fails the reply), at Stop, when the
 * chat goes; a retried delivery's new token works as well as the first.
 */
describe('long-running agents: deadlines, Stop and retries (real PostgreSQL, in-process queue)', () => {
  const env = useCallbackApp();

  // After the deadline the reply has failed: nothing more of it may be accepted or reach a tab.
  it('a streamed callback still open at its deadline is cut: the reply fails, no delta after it, later chunks refused', async () => {
    const user = await registerUser(env.t);
    const tab = await env.socketFor(user);
    const { chatId, messageId } = await env.sendAsync(user);
    // The agent's deadline (minutes in real life) is 1.5 s away: its token and its wait say so.
    const deadline = Date.now() + 1500;
    await env.db.getRepository(AgentCallbackWaitEntity).update(messageId, { expiresAt: new Date(deadline) });
    const upload = http.request(new URL(`${env.t.baseUrl}/api/agent-callbacks/${messageId}`), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${env.tokenFor(messageId, deadline)}`,
        'content-type': 'application/x-ndjson',
      },
    });
    let closedAt = 0;
    upload.on('close', () => (closedAt = Date.now()));
    upload.on('error', () => undefined); // writes after the cut fail: expected
    const answer = new Promise<{ status: number; body: string }>((resolve) => {
      upload.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, body }));
      });
    });
    // An item every 100 ms for up to 6 s (4.5 s past the deadline), while the connection lasts.
    let sent = 0;
    const until = deadline + 4500;
    while (Date.now() < until && !closedAt) {
      upload.write(`${JSON.stringify({ type: 'item', content: `piece ${sent++} ` })}\n`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!closedAt) upload.end();
    const { status, body } = await answer;
    expect([status, (JSON.parse(body) as { message: string }).message]).toEqual([410, CALLBACK_EXPIRED]);
    // Cut within a moment of the deadline, long before the agent stopped sending.
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt).toBeLessThan(deadline + 4000);
    const failed = await tab.waitFor<{ messageId: string; reason: string }>('agent.reply_failed');
    expect(failed).toMatchObject({
      messageId,
      chatId,
      reason: 'The agent did not deliver its reply within its 10-minute deadline.',
    });
    // The sweep, and a moment for anything late to reach the tab.
    await env.sweep();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const events = tab.events.map((e) => e.event);
    const failedAt = events.indexOf('agent.reply_failed');
    expect(events.slice(0, failedAt)).toContain('message.delta');
    expect(events.slice(failedAt + 1)).not.toContain('message.delta');
    expect(events.filter((e) => e === 'agent.reply_failed')).toHaveLength(1);
    const deltas = tab.events
      .filter((e) => e.event === 'message.delta')
      .map((e) => (e.payload as { text: string }).text)
      .join('');
    expect(deltas.split('piece').length - 1).toBeLessThan(sent);
    expect(await env.replyStatusOf(messageId)).toBe('failed');
    expect(await env.historyOf(user, chatId)).toEqual({
      contents: ['write me a long report'],
      pendingReply: false,
    });
  }, 20_000);

  it('the sweep leaves an accepted reply alone before its deadline and does not call the agent again', async () => {
    const user = await registerUser(env.t);
    const tab = await env.socketFor(user);
    const { messageId } = await env.sendAsync(user);
    // Far older than the retry budget after which an ordinary pending reply is failed or queued again.
    await dateMessage(env.t.app, messageId, new Date(Date.now() - 2 * 3600_000));
    await env.sweep();
    await env.t.drain();
    expect(await env.replyStatusOf(messageId)).toBe('pending');
    expect(env.deliveriesOf(messageId)).toHaveLength(1);
    expect(tab.events.map((e) => e.event)).not.toContain('agent.reply_failed');
  });

  it('late: past the deadline the callback is refused (410), the sweep fails the reply clearly, and it stays failed', async () => {
    const user = await registerUser(env.t);
    const tab = await env.socketFor(user);
    const { chatId, messageId } = await env.sendAsync(user);
    // Ten minutes and a second go by: the agent's token (issued then) expired a second ago, and so did
    // the wait the 202 recorded.
    const lateToken = env.tokenFor(messageId, Date.now() - 1000);
    await env.db.query(
      `UPDATE agent_callback_waits SET created_at = created_at - interval '601 seconds',
         expires_at = expires_at - interval '601 seconds' WHERE message_id = $1`,
      [messageId],
    );
    const late = await env.callBack(messageId, lateToken, { output: 'sorry I am late' });
    expect(late.status).toBe(410);
    expect(late.body.message).toBe(CALLBACK_EXPIRED);
    expect(await env.replyStatusOf(messageId)).toBe('pending');

    await env.sweep();
    const failed = await tab.waitFor<{ messageId: string; reason: string }>('agent.reply_failed');
    expect(failed).toMatchObject({
      messageId,
      chatId,
      reason: 'The agent did not deliver its reply within its 10-minute deadline.',
    });
    await tab.waitFor<{ typing: boolean }>('agent.typing', (p) => !p.typing);
    expect(await env.historyOf(user, chatId)).toEqual({
      contents: ['write me a long report'],
      pendingReply: false,
    });

    await env.callBack(messageId, lateToken, { output: 'still late' }).expect(410);
    // Even a token that had not expired cannot revive a failed reply.
    const revived = await env.callBack(messageId, env.tokenFor(messageId, Date.now() + 3_600_000), {
      output: 'still late',
    });
    expect(revived.status).toBe(409);
    expect(revived.body.message).toBe(CALLBACK_REPLY_FAILED);
    expect(await env.replyStatusOf(messageId)).toBe('failed');
    expect((await env.historyOf(user, chatId)).contents).toEqual(['write me a long report']);
  });

  it('Stop ends the wait: the chat takes messages again and a later callback is refused', async () => {
    const user = await registerUser(env.t);
    const tab = await env.socketFor(user);
    const { chatId, messageId, delivery } = await env.sendAsync(user);
    await request(env.t.http).post(`/api/chats/${chatId}/stop`).set(as(user)).expect(200);
    await tab.waitFor<{ typing: boolean }>('agent.typing', (p) => !p.typing);
    expect(await env.historyOf(user, chatId)).toEqual({
      contents: ['write me a long report'],
      pendingReply: false,
    });
    const late = await env.callBack(messageId, delivery.callbackToken, { output: 'too late, stopped' });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(CALLBACK_REPLY_STOPPED);
    expect((await env.historyOf(user, chatId)).contents).toEqual(['write me a long report']);
  });

  it('a callback for a message whose chat was deleted is a 404', async () => {
    const user = await registerUser(env.t);
    const { chatId, messageId, delivery } = await env.sendAsync(user);
    await request(env.t.http).delete(`/api/chats/${chatId}`).set(as(user)).expect(204);
    const gone = await env.callBack(messageId, delivery.callbackToken, { output: 'for nobody' });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(CALLBACK_MESSAGE_GONE);
  });

  it('a retried delivery carries a new token; either token delivers, once', async () => {
    const user = await registerUser(env.t);
    const { chatId, messageId, deliveries } = await env.sendAsync(user, '/flaky-async');
    expect(deliveries).toHaveLength(2);
    const [first, second] = deliveries;
    expect(first.callbackToken).not.toBe(second.callbackToken);
    expect(await env.replyStatusOf(messageId)).toBe('pending');
    // An agent that deduplicated on webhook-id answers with the first delivery's token.
    await env.callBack(messageId, first.callbackToken, { output: 'from the first delivery' }).expect(200);
    const again = await env.callBack(messageId, second.callbackToken, { output: 'from the second' });
    expect(again.status).toBe(409);
    expect((await env.historyOf(user, chatId)).contents).toEqual([
      'write me a long report',
      'from the first delivery',
    ]);
  }, 20_000);

  it("uses the agent's own deadline: 1 to 60 minutes, 10 by default, readable refusals otherwise", async () => {
    const user = await registerUser(env.t);
    for (const bad of [0, 61, 2.5, 'ten', null]) {
      const res = await request(env.t.http)
        .post('/api/agents')
        .set(as(user))
        .send({ name: 'Slow agent', webhook: `${env.hook.url}/async`, callbackDeadlineMinutes: bad });
      expect([bad, res.status]).toEqual([bad, 400]);
      if (bad !== null) expect(res.body.message).toBe(REPLY_DEADLINE_RULE);
    }
    const plain = await env.createAgent(user, '/async');
    expect(plain.callbackDeadlineMinutes).toBe(10);
    const slow = await env.createAgent(user, '/async', { callbackDeadlineMinutes: 30 });
    expect(slow.callbackDeadlineMinutes).toBe(30);
    const patched = await request(env.t.http)
      .patch(`/api/agents/${slow.id}`)
      .set(as(user))
      .send({ callbackDeadlineMinutes: 45 })
      .expect(200);
    expect(patched.body.callbackDeadlineMinutes).toBe(45);
    await request(env.t.http)
      .patch(`/api/agents/${slow.id}`)
      .set(as(user))
      .send({ callbackDeadlineMinutes: 90 })
      .expect(400);

    const res = await request(env.t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId: slow.id, content: 'take your time' })
      .expect(201);
    await env.t.drain();
    const messageId = (res.body as { message: MessageView }).message.id;
    const [delivery] = env.deliveriesOf(messageId);
    const expiresAt = verifyCallbackToken(
      callbackTokenKey(env.t.config.jwtSecret),
      messageId,
      delivery.callbackToken,
    );
    expect(Math.round(((expiresAt as number) - Date.now()) / 60_000)).toBe(45);
    const [wait] = await env.waitsOf(messageId);
    expect([wait.deadline_minutes, wait.minutes]).toEqual([45, 45]);
  });

  it('the ordinary path writes nothing for callbacks: a token goes with the call, no row is stored', async () => {
    const user = await registerUser(env.t);
    const waitsBefore = await env.countWaits();
    const agent = await env.createAgent(user, '/sync');
    const res = await request(env.t.http)
      .post('/api/messages')
      .set(as(user))
      .send({ agentId: agent.id, content: 'a quick question' })
      .expect(201);
    await env.t.drain();
    const { chat, message } = res.body as { chat: ChatView; message: MessageView };
    expect((await env.historyOf(user, chat.id)).contents).toEqual(['a quick question', 'right away']);
    const [delivery] = env.deliveriesOf(message.id);
    expect(delivery.callbackToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await env.waitsOf(message.id)).toEqual([]);
    expect(await env.countWaits()).toBe(waitsBefore);
    // Its token is good for nothing now: the message has its reply.
    const replay = await env.callBack(message.id, delivery.callbackToken, { output: 'me too' });
    expect([replay.status, replay.body.message]).toEqual([409, CALLBACK_ALREADY_USED]);
    expect((await env.historyOf(user, chat.id)).contents).toEqual(['a quick question', 'right away']);
  });
});
