import request from 'supertest';
import { registerUser } from '../../test/app.test-util';
import { CALLBACK_TOKEN_INVALID, CALLBACK_TOKEN_REQUIRED } from './agent-callbacks.service';
import { CALLBACK_BODY_INVALID } from './callback-body';
import { callbackTokenKey, mintCallbackToken } from './callback-token';
import { NUL_IN_TEXT, TOO_DEEP } from '../common/hostile-body';
import { useCallbackApp } from '../../test/agent-callbacks.test-util';

/** A callback is taken only with its message's valid token, checked before its body is read. */
describe('long-running agents: the callback token (real PostgreSQL, in-process queue)', () => {
  const env = useCallbackApp();

  const laterExpiry = (token: string) => {
    const bytes = Buffer.from(token, 'base64url');
    bytes.writeUIntBE(bytes.readUIntBE(1, 6) + 24 * 3600 * 1000, 1, 6);
    return bytes.toString('base64url');
  };

  it('refuses a missing or wrong token, a token of another message and a bad body; nothing changes', async () => {
    const user = await registerUser(env.t);
    const tab = await env.socketFor(user);
    const { chatId, messageId, delivery } = await env.sendAsync(user);
    const other = await env.sendAsync(await registerUser(env.t));
    const refusals = [
      [await env.callBack(messageId, null, { output: 'forged' }), 401, CALLBACK_TOKEN_REQUIRED],
      [await env.callBack(messageId, 'not-the-token', { output: 'forged' }), 401, CALLBACK_TOKEN_INVALID],
      [await env.callBack(messageId, user.accessToken, { output: 'forged' }), 401, CALLBACK_TOKEN_INVALID],
      // A token of message A is refused for message B.
      [
        await env.callBack(messageId, other.delivery.callbackToken, { output: 'x' }),
        401,
        CALLBACK_TOKEN_INVALID,
      ],
      // The right token with its expiry moved a day on (the MAC kept): refused, not extended.
      [
        await env.callBack(messageId, laterExpiry(delivery.callbackToken), { output: 'x' }),
        401,
        CALLBACK_TOKEN_INVALID,
      ],
      // The right shape for the message, made with another key.
      [
        await env.callBack(
          messageId,
          mintCallbackToken(
            callbackTokenKey('another secret, as long as a JWT secret is'),
            messageId,
            Date.now() + 600_000,
          ),
          { output: 'x' },
        ),
        401,
        CALLBACK_TOKEN_INVALID,
      ],
      // Unknown and malformed ids look exactly like a wrong token: no telling which messages exist.
      [
        await env.callBack(crypto.randomUUID(), delivery.callbackToken, { output: 'x' }),
        401,
        CALLBACK_TOKEN_INVALID,
      ],
      [
        await env.callBack('not-a-uuid', delivery.callbackToken, { output: 'x' }),
        401,
        CALLBACK_TOKEN_INVALID,
      ],
      [
        await env.callBack(messageId, delivery.callbackToken, { reply: 'no output' }),
        400,
        CALLBACK_BODY_INVALID,
      ],
      [
        await env.callBack(messageId, delivery.callbackToken, [{ output: '   ' }]),
        400,
        CALLBACK_BODY_INVALID,
      ],
    ] as const;
    expect(refusals.map(([res]) => [res.status, res.body.message])).toEqual(
      refusals.map(([, status, message]) => [status, message]),
    );
    expect(await env.historyOf(user, chatId)).toEqual({
      contents: ['write me a long report'],
      pendingReply: true,
    });
    expect(await env.replyStatusOf(other.messageId)).toBe('pending');
    expect(tab.events.filter((e) => e.event === 'message.created')).toHaveLength(1);
    // The right token still works: the refusals used nothing up.
    await env.callBack(messageId, delivery.callbackToken, { output: 'the real reply' }).expect(200);
    expect((await env.historyOf(user, chatId)).contents).toEqual([
      'write me a long report',
      'the real reply',
    ]);
  });

  // Parsing up to 1 MB of JSON costs ~100 ms of CPU: no unauthenticated caller may make the app pay it.
  it('checks the token before reading the body: a forged token with 1 MB of broken JSON is a 401, unparsed', async () => {
    const user = await registerUser(env.t);
    const { chatId, messageId, delivery } = await env.sendAsync(user);
    const broken = `{"output": "${'x'.repeat(1024 * 1024 - 32)}`;
    const deep = '['.repeat(5000);
    const forgedToken = mintCallbackToken(
      callbackTokenKey('another secret, as long as a JWT secret is'),
      messageId,
      Date.now() + 600_000,
    );
    const post = (token: string | null, body: string) => {
      const req = request(env.t.http)
        .post(`/api/agent-callbacks/${messageId}`)
        .set('Content-Type', 'application/json');
      if (token !== null) req.set('Authorization', `Bearer ${token}`);
      return req.send(body);
    };
    const parse = jest.spyOn(JSON, 'parse');
    let refusals: Array<[number, string]>;
    try {
      refusals = [];
      for (const [token, body] of [
        [forgedToken, broken],
        [null, broken],
        ['not-a-token', deep],
        [forgedToken, `{"output": "${'y'.repeat(200 * 1024)}"}`],
      ] as const) {
        const res = await post(token, body);
        refusals.push([res.status, (res.body as { message: string }).message]);
      }
      // JSON.parse saw no request body (the responses' own small bodies are parsed by supertest).
      const bodiesParsed = parse.mock.calls.filter(
        ([text]) => typeof text === 'string' && text.length > 10_000,
      );
      expect(bodiesParsed.map(([text]) => (text as string).length)).toEqual([]);
    } finally {
      parse.mockRestore();
    }
    expect(refusals).toEqual([
      [401, CALLBACK_TOKEN_INVALID],
      [401, CALLBACK_TOKEN_REQUIRED],
      [401, CALLBACK_TOKEN_INVALID],
      [401, CALLBACK_TOKEN_INVALID],
    ]);
    // With the right token the body is read, and refused as before when it is not JSON or too deep.
    const notJson = await post(delivery.callbackToken, broken);
    expect([notJson.status, notJson.body.message]).toEqual([400, 'The request body is not valid JSON.']);
    const tooDeep = await post(delivery.callbackToken, deep);
    expect([tooDeep.status, tooDeep.body.message]).toEqual([400, TOO_DEEP]);
    const nul = await post(delivery.callbackToken, JSON.stringify({ output: 'a\u0000b' }));
    expect([nul.status, nul.body.message]).toEqual([400, NUL_IN_TEXT]);
    expect(await env.replyStatusOf(messageId)).toBe('pending');
    await post(delivery.callbackToken, JSON.stringify({ output: 'the real reply' })).expect(200);
    expect((await env.historyOf(user, chatId)).contents).toEqual([
      'write me a long report',
      'the real reply',
    ]);
  });
});
