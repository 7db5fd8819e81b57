import http from 'node:http';
import request from 'supertest';
import { registerUser } from '../../test/app.test-util';
import { as } from '../../test/auth';
import type { MessageView } from '../realtime/client-events';
import { CALLBACK_ALREADY_USED } from './agent-callbacks.service';
import { CALLBACK_STREAM_EMPTY } from './callback-body';
import { callbackTokenKey, verifyCallbackToken } from './callback-token';
import { useCallbackApp } from '../../test/agent-callbacks.test-util';

/**
 * A long-running agent answers 202 and calls back later: the callback's shapes (JSON, streamed, error
 * chunks) are stored once and reach the tabs live.
 */
describe('long-running agents: 202 Accepted, then a callback (real PostgreSQL, in-process queue)', () => {
  const env = useCallbackApp();

  it('sends callbackUrl and a token, keeps the reply pending on 202, and stores the callback once, pushed live', async () => {
    const user = await registerUser(env.t);
    const tab = await env.socketFor(user);
    const { chatId, messageId, delivery } = await env.sendAsync(user);
    expect(delivery.callbackUrl).toBe(`${env.t.config.appOrigin}/api/agent-callbacks/${messageId}`);
    expect(delivery.callbackToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The token is not stored: the 202 wrote the wait, with the token's own expiry as its deadline.
    const waits = await env.waitsOf(messageId);
    expect(waits).toHaveLength(1);
    expect(JSON.stringify(waits)).not.toContain(delivery.callbackToken);
    const key = callbackTokenKey(env.t.config.jwtSecret);
    expect(waits[0].expires_at.getTime()).toBe(verifyCallbackToken(key, messageId, delivery.callbackToken));
    expect(waits[0].deadline_minutes).toBe(10);
    // 202: the job is over, the reply is not: the typing indicator stays on every tab.
    expect(await env.historyOf(user, chatId)).toEqual({
      contents: ['write me a long report'],
      pendingReply: true,
    });
    expect(tab.events.filter((e) => e.event === 'agent.typing').map((e) => e.payload)).toEqual([
      expect.objectContaining({ chatId, typing: true }),
    ]);

    const ok = await env.callBack(messageId, delivery.callbackToken, { output: 'Here is the report.' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true });
    const created = await tab.waitFor<{ message: MessageView }>(
      'message.created',
      (p) => p.message.senderType === 'agent',
    );
    expect(created.message.content).toBe('Here is the report.');
    await tab.waitFor<{ typing: boolean }>('agent.typing', (p) => !p.typing);
    expect(await env.historyOf(user, chatId)).toEqual({
      contents: ['write me a long report', 'Here is the report.'],
      pendingReply: false,
    });

    // Twice: the replay is refused and changes nothing.
    const replay = await env.callBack(messageId, delivery.callbackToken, { output: 'Here it is again.' });
    expect(replay.status).toBe(409);
    expect(replay.body.message).toBe(CALLBACK_ALREADY_USED);
    expect((await env.historyOf(user, chatId)).contents).toEqual([
      'write me a long report',
      'Here is the report.',
    ]);
    expect(tab.events.filter((e) => e.event === 'message.created')).toHaveLength(2);
  });

  it('takes the classic [{"output": ...}] shape and replies up to the 1 MB cap', async () => {
    const user = await registerUser(env.t);
    const { chatId, messageId, delivery } = await env.sendAsync(user);
    const long = 'x'.repeat(300 * 1024); // over the 100 kB other routes take
    await env.callBack(messageId, delivery.callbackToken, [{ output: long }]).expect(200);
    expect((await env.historyOf(user, chatId)).contents).toEqual(['write me a long report', long]);

    const streamed = await env.sendAsync(await registerUser(env.t));
    const tooLargeStream = await request(env.t.http)
      .post(`/api/agent-callbacks/${streamed.messageId}`)
      .set('Authorization', `Bearer ${streamed.delivery.callbackToken}`)
      .set('Content-Type', 'text/plain')
      .send('y'.repeat(1024 * 1024 + 1));
    expect(tooLargeStream.status).toBe(413);
    expect(await env.replyStatusOf(streamed.messageId)).toBe('pending');

    const other = await env.sendAsync(await registerUser(env.t));
    const tooLarge = await env.callBack(other.messageId, other.delivery.callbackToken, {
      output: 'x'.repeat(1024 * 1024 + 1),
    });
    expect(tooLarge.status).toBe(413);
    expect(await env.replyStatusOf(other.messageId)).toBe('pending');
  });

  it('takes a streamed body (n8n NDJSON, SSE, plain text) and stores its text once', async () => {
    const user = await registerUser(env.t);
    const ndjson = [
      { type: 'begin', metadata: { nodeId: 'n1' } },
      { type: 'item', content: 'Hello ', metadata: { nodeId: 'n1' } },
      { type: 'item', content: 'from n8n.', metadata: { nodeId: 'n1' } },
      { type: 'end', metadata: { nodeId: 'n1' } },
    ]
      .map((chunk) => JSON.stringify(chunk))
      .join('\n');
    const cases = [
      ['application/x-ndjson', ndjson, 'Hello from n8n.'],
      ['text/event-stream', 'data: Hello \n\ndata: over SSE.\n\n', 'Hello over SSE.'],
      ['text/plain; charset=utf-8', 'Just text.', 'Just text.'],
    ] as const;
    for (const [type, body, expected] of cases) {
      const { chatId, messageId, delivery } = await env.sendAsync(user);
      const empty = await request(env.t.http)
        .post(`/api/agent-callbacks/${messageId}`)
        .set('Authorization', `Bearer ${delivery.callbackToken}`)
        .set('Content-Type', type)
        .send(type === 'application/x-ndjson' ? '{"type":"end"}' : '   ');
      expect([type, empty.status, empty.body.message]).toEqual([type, 400, CALLBACK_STREAM_EMPTY]);
      await request(env.t.http)
        .post(`/api/agent-callbacks/${messageId}`)
        .set('Authorization', `Bearer ${delivery.callbackToken}`)
        .set('Content-Type', type)
        .send(body)
        .expect(200);
      expect((await env.historyOf(user, chatId)).contents).toEqual(['write me a long report', expected]);
    }
  });

  it('a streamed callback reaches the tabs as it arrives (message.delta), then is stored once', async () => {
    const user = await registerUser(env.t);
    const tab = await env.socketFor(user);
    const { chatId, messageId, delivery } = await env.sendAsync(user);
    const line = (chunk: object) => `${JSON.stringify(chunk)}\n`;
    const url = new URL(`${env.t.baseUrl}/api/agent-callbacks/${messageId}`);
    const upload = http.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${delivery.callbackToken}`,
        'content-type': 'application/x-ndjson',
      },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      upload.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      upload.on('error', reject);
    });
    upload.write(line({ type: 'begin', metadata: {} }));
    upload.write(line({ type: 'item', content: 'Part one, ', metadata: {} }));
    // The first piece is on the user's tab while the agent is still sending.
    const delta = await tab.waitFor<{ messageId: string; text: string }>('message.delta');
    expect(delta).toMatchObject({ messageId, chatId, text: 'Part one, ' });
    expect(await env.replyStatusOf(messageId)).toBe('pending');
    upload.write(line({ type: 'item', content: 'part two.', metadata: {} }));
    upload.end(line({ type: 'end', metadata: {} }));
    expect(await answer).toEqual({ status: 200, body: JSON.stringify({ ok: true }) });
    expect((await env.historyOf(user, chatId)).contents).toEqual([
      'write me a long report',
      'Part one, part two.',
    ]);
    const created = tab.events.filter(
      (e) =>
        e.event === 'message.created' &&
        (e.payload as { message: MessageView }).message.senderType === 'agent',
    );
    expect(created).toHaveLength(1);
  });

  it("an n8n error chunk fails the reply at once with the agent's message", async () => {
    const user = await registerUser(env.t);
    const tab = await env.socketFor(user);
    const { chatId, messageId, delivery } = await env.sendAsync(user);
    await request(env.t.http)
      .post(`/api/agent-callbacks/${messageId}`)
      .set('Authorization', `Bearer ${delivery.callbackToken}`)
      .set('Content-Type', 'application/x-ndjson')
      .send('{"type":"begin"}\n{"type":"error","content":"The report tool crashed"}\n')
      .expect(200);
    const failed = await tab.waitFor<{ messageId: string; reason: string }>('agent.reply_failed');
    expect(failed).toMatchObject({
      messageId,
      reason: 'The agent reported an error: The report tool crashed',
    });
    expect(await env.historyOf(user, chatId)).toEqual({
      contents: ['write me a long report'],
      pendingReply: false,
    });
    await env.callBack(messageId, delivery.callbackToken, { output: 'never mind' }).expect(409);
  });

  it("an error chunk after some text keeps that text, marked as cut short, with the agent's message", async () => {
    const user = await registerUser(env.t);
    const { chatId, messageId, delivery } = await env.sendAsync(user);
    await request(env.t.http)
      .post(`/api/agent-callbacks/${messageId}`)
      .set('Authorization', `Bearer ${delivery.callbackToken}`)
      .set('Content-Type', 'application/x-ndjson')
      .send('{"type":"item","content":"Half a report"}\n{"type":"error","content":"tool crashed"}\n')
      .expect(200);
    const res = await request(env.t.http).get(`/api/chats/${chatId}/messages`).set(as(user)).expect(200);
    const reply = (res.body as { messages: Array<MessageView & { interrupted?: string | null }> })
      .messages[1];
    expect(reply).toMatchObject({
      senderType: 'agent',
      content: 'Half a report',
      interrupted: 'error',
      interruptedReason: 'tool crashed',
    });
    expect(await env.replyStatusOf(messageId)).toBe('replied');
  });
});
