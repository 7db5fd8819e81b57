import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createTestApp, registerUser, type RegisteredUser, type TestApp } from '../../test/app.test-util';
import { as } from '../../test/auth';
import {
  type FakeVoiceProvider,
  SIGNED_URL_PATH,
  startFakeVoiceProvider,
} from '../../test/fake-convai.test-util';
import { connectSocket, type FakeWebhook, startFakeWebhook, useSockets } from '../../test/realtime.test-util';
import { CHAT_ARCHIVED } from '../chats/chats.service';
import type { ChatView, MessageView } from '../contracts/chats';
import type { StartVoiceCallResult } from '../contracts/voice';
import type { ClientEventMap } from '../contracts/realtime-events';
import {
  PROVIDER_BAD_ANSWER,
  PROVIDER_FAILED,
  PROVIDER_REFUSED_KEY,
  PROVIDER_UNREACHABLE,
} from './elevenlabs.client';
import {
  CHAT_OF_ANOTHER_AGENT,
  VOICE_AGENT_ID_REQUIRED,
  VOICE_CALL_ENDED,
  VOICE_CALL_NOT_FOUND,
  VOICE_CALL_OTHER_CHAT,
} from './voice.service';
import { VoiceCallEntity } from './voice-call.entity';

const API_KEY = 'xi-test-key-never-to-be-shown';

describe('voice calls (real PostgreSQL, a local fake of the voice provider)', () => {
  let provider: FakeVoiceProvider;
  let hook: FakeWebhook;
  /** ELEVENLABS_API_KEY set: signed URLs. */
  let t: TestApp;
  /** No key: public agents by agent id. */
  let publicApp: TestApp;
  const openSocket = useSockets();

  beforeAll(async () => {
    provider = await startFakeVoiceProvider(API_KEY);
    hook = await startFakeWebhook();
    const env = {
      WEBHOOK_ALLOWED_HOSTS: hook.hostPort,
      ELEVENLABS_API_URL: provider.apiUrl,
      ELEVENLABS_WS_URL: provider.wsUrl,
    };
    t = await createTestApp({ ...env, ELEVENLABS_API_KEY: API_KEY });
    publicApp = await createTestApp(env);
  });
  afterEach(() => {
    provider.answer = 'signed';
  });
  afterAll(async () => {
    await t?.close();
    await publicApp?.close();
    await provider?.close();
    await hook?.close();
  });

  const createAgent = async (app: TestApp, user: RegisteredUser, voiceAgentId: string | null) => {
    const res = await request(app.http)
      .post('/api/agents')
      .set(as(user))
      .send({ name: 'Voice Agent', webhook: `${hook.url}/ok`, elevenlabsAgentId: voiceAgentId })
      .expect(201);
    return res.body as { id: string; name: string };
  };
  const start = (app: TestApp, user: RegisteredUser, body: object) =>
    request(app.http).post('/api/voice/sessions').set(as(user)).send(body);
  const saveTurn = (user: RegisteredUser, body: object) =>
    request(t.http).post('/api/voice/transcripts').set(as(user)).send(body);
  const chatCount = async (user: RegisteredUser) =>
    (await request(t.http).get('/api/chats').set(as(user)).expect(200)).body.chats.length as number;
  const messagesOf = async (user: RegisteredUser, chatId: string) =>
    (await request(t.http).get(`/api/chats/${chatId}/messages`).set(as(user)).expect(200)).body
      .messages as MessageView[];

  /** A user with a voice agent and a call started (its new chat). */
  async function inCall() {
    const user = await registerUser(t);
    const agent = await createAgent(t, user, 'agent_voice_1');
    const res = await start(t, user, { agentId: agent.id }).expect(201);
    const started = res.body as StartVoiceCallResult;
    return { user, agent, chat: started.chat, callId: started.callId };
  }

  describe('starting a call', () => {
    it('with the API key: the api fetches a signed URL with xi-api-key and never reveals the key', async () => {
      const user = await registerUser(t);
      const agent = await createAgent(t, user, 'agent_voice_signed');
      const socket = await openSocket(t.baseUrl, user.accessToken);
      provider.requests.length = 0;

      const res = await start(t, user, { agentId: agent.id }).expect(201);
      const body = res.body as StartVoiceCallResult;

      expect(provider.requests).toHaveLength(1);
      expect(provider.requests[0].path).toBe(SIGNED_URL_PATH);
      expect(provider.requests[0].query.get('agent_id')).toBe('agent_voice_signed');
      expect(provider.requests[0].headers['xi-api-key']).toBe(API_KEY);
      expect(body.connection).toEqual({
        mode: 'signed',
        signedUrl: expect.stringMatching(
          new RegExp(
            `^${provider.wsUrl}/v1/convai/conversation\\?agent_id=agent_voice_signed&conversation_signature=`,
          ),
        ) as string,
      });
      expect(res.text).not.toContain(API_KEY);
      // No active chat: the call gets 'Chat with {agent}', and the user's other tabs hear of it.
      expect(body.chatCreated).toBe(true);
      expect(body.chat.title).toBe('Chat with Voice Agent');
      const created = await socket.waitFor<ClientEventMap['chat.created']>('chat.created');
      expect(created.chat.id).toBe(body.chat.id);
    });

    it('into the chat on screen: no new chat', async () => {
      const { user, agent, chat } = await inCall();
      const before = await chatCount(user);
      const res = await start(t, user, { agentId: agent.id, chatId: chat.id }).expect(201);
      expect(res.body).toMatchObject({ chatCreated: false, chat: { id: chat.id } });
      expect(await chatCount(user)).toBe(before);
    });

    it('without the key: the public agent-id URL on the configured origin, and no call to the provider', async () => {
      const user = await registerUser(publicApp);
      const agent = await createAgent(publicApp, user, 'agent_public 1');
      provider.requests.length = 0;
      const res = await start(publicApp, user, { agentId: agent.id }).expect(201);
      expect((res.body as StartVoiceCallResult).connection).toEqual({
        mode: 'public',
        agentId: 'agent_public 1',
        origin: provider.wsUrl,
        url: `${provider.wsUrl}/v1/convai/conversation?agent_id=agent_public%201`,
      });
      expect(provider.requests).toHaveLength(0);
    });

    it('refuses an agent without a voice agent id, and the default agent', async () => {
      const user = await registerUser(t);
      const agent = await createAgent(t, user, null);
      const res = await start(t, user, { agentId: agent.id }).expect(400);
      expect(res.body.message).toBe(VOICE_AGENT_ID_REQUIRED);
      const viaDefault = await start(t, user, { agentId: 'default-agent' }).expect(400);
      expect(viaDefault.body.message).toBe(VOICE_AGENT_ID_REQUIRED);
      expect(await chatCount(user)).toBe(0);
    });

    it('refuses an agent that is switched off', async () => {
      const user = await registerUser(t);
      const agent = await createAgent(t, user, 'agent_voice_off');
      await request(t.http)
        .patch(`/api/agents/${agent.id}`)
        .set(as(user))
        .send({ isActive: false })
        .expect(200);
      const res = await start(t, user, { agentId: agent.id }).expect(400);
      expect(res.body.message).toBe('This agent is not active');
    });

    it("refuses another user's or another company's agent and chat", async () => {
      const { user: owner, agent, chat } = await inCall();
      const outsider = await registerUser(t);
      // Naming their own company: the owner's agent and chat do not exist there.
      await start(t, outsider, { agentId: agent.id }).expect(404);
      const outsiderAgent = await createAgent(t, outsider, 'agent_voice_outsider');
      await start(t, outsider, { agentId: outsiderAgent.id, chatId: chat.id }).expect(404);
      // Naming the owner's company: not a member.
      await start(t, outsider, { agentId: agent.id }).set('X-Company-Id', owner.companyId).expect(404);
      // Another of the owner's agents cannot take over this chat.
      const other = await createAgent(t, owner, 'agent_voice_other');
      const res = await start(t, owner, { agentId: other.id, chatId: chat.id }).expect(400);
      expect(res.body.message).toBe(CHAT_OF_ANOTHER_AGENT);
    });

    it('refuses malformed input with a readable 400', async () => {
      const user = await registerUser(t);
      expect((await start(t, user, {}).expect(400)).body.message).toBe('No agent selected');
      const agent = await createAgent(t, user, 'agent_voice_x');
      expect((await start(t, user, { agentId: agent.id, chatId: 'nope' }).expect(400)).body.message).toBe(
        'Chat not found',
      );
    });

    it.each([
      [401, 'signed', 502, PROVIDER_REFUSED_KEY],
      [503, 503, 502, PROVIDER_FAILED],
      [0, 'drop', 503, PROVIDER_UNREACHABLE],
      [0, 'foreign-origin', 502, PROVIDER_BAD_ANSWER],
      [0, 'not-json', 502, PROVIDER_BAD_ANSWER],
    ] as const)(
      'provider failure (%s %s) → %s with a readable message, and no chat left behind',
      async (_status, answer, expected, message) => {
        const user = await registerUser(t);
        const agent = await createAgent(t, user, 'agent_voice_failing');
        provider.answer = answer;
        if (_status === 401) provider.expectedKey = 'another key';
        try {
          const res = await start(t, user, { agentId: agent.id }).expect(expected);
          expect(res.body.message).toBe(message);
          expect(res.text).not.toContain(API_KEY);
          expect(await chatCount(user)).toBe(0);
        } finally {
          provider.expectedKey = API_KEY;
        }
      },
    );

    it('lets the browser reach exactly the configured voice origin (CSP connect-src)', async () => {
      const res = await request(t.http).get('/api/health').expect(200);
      const csp = String(res.headers['content-security-policy']);
      const connectSrc = csp.split(';').find((d) => d.trim().startsWith('connect-src'));
      expect(connectSrc?.trim()).toBe(`connect-src 'self' ws://localhost:3000 ${provider.wsUrl}`);
    });
  });

  describe('transcript turns', () => {
    /** A turn of `call` (its chat and call id), or of `extra`'s chatId and callId. */
    const turn = (call: { chat: { id: string }; callId: string }, extra: object = {}) => ({
      callId: call.callId,
      chatId: call.chat.id,
      role: 'user',
      text: 'Hello there, I said this out loud',
      conversationId: 'conv_123',
      eventId: '1',
      ...extra,
    });

    it('are stored once per provider event as voice messages, move the chat up and reach other tabs', async () => {
      const call = await inCall();
      const { user, chat } = call;
      const otherTab = await openSocket(t.baseUrl, user.accessToken);
      hook.requests.length = 0;

      const first = await saveTurn(user, turn(call)).expect(201);
      const again = await saveTurn(user, turn(call)).expect(201);
      const reply = await saveTurn(
        user,
        turn(call, { role: 'agent', text: 'Hi! How can I help?', eventId: 2 }),
      ).expect(201);

      expect(again.body.id).toBe(first.body.id);
      expect(first.body).toMatchObject({
        senderType: 'user',
        senderId: user.userId,
        isVoiceMessage: true,
        content: 'Hello there, I said this out loud',
        feedback: null,
      });
      expect(reply.body).toMatchObject({ senderType: 'agent', isVoiceMessage: true });
      const messages = await messagesOf(user, chat.id);
      expect(messages.map((m) => m.content)).toEqual([
        'Hello there, I said this out loud',
        'Hi! How can I help?',
      ]);

      const live = await otherTab.waitFor<ClientEventMap['message.created']>(
        'message.created',
        (p) => p.message.id === reply.body.id,
      );
      expect(live.chat.lastMessage).toBe('Hi! How can I help?');
      expect(live.chat.updatedAt > chat.updatedAt).toBe(true);
      // The retry pushed nothing: one event per stored line.
      expect(otherTab.events.filter((e) => e.event === 'message.created')).toHaveLength(2);
      const listed = (await request(t.http).get('/api/chats').set(as(user)).expect(200)).body
        .chats as ChatView[];
      expect(listed.find((c) => c.id === chat.id)?.updatedAt).toBe(live.chat.updatedAt);
      // Voice turns never go to the webhook.
      await t.drain();
      expect(hook.requests).toHaveLength(0);
    });

    it('a later call in the same chat has its own event ids', async () => {
      const call = await inCall();
      const { user, chat } = call;
      await saveTurn(user, turn(call, { conversationId: 'conv_a', eventId: '5' })).expect(201);
      await saveTurn(user, turn(call, { conversationId: 'conv_b', eventId: '5' })).expect(201);
      expect(await messagesOf(user, chat.id)).toHaveLength(2);
    });

    it('the next typed message goes to the webhook with the chat as its sessionId', async () => {
      const call = await inCall();
      const { user, chat } = call;
      await saveTurn(user, turn(call)).expect(201);
      hook.requests.length = 0;
      await request(t.http)
        .post(`/api/chats/${chat.id}/messages`)
        .set(as(user))
        .send({ content: 'typed after the call' })
        .expect(201);
      await t.drain();
      expect(hook.requests).toHaveLength(1);
      const sent = JSON.parse(hook.requests[0].body) as { message: string; sessionId: string };
      expect(sent).toMatchObject({ message: 'typed after the call', sessionId: chat.id });
    });

    it("refuses another user's chat, an archived chat and malformed turns", async () => {
      const call = await inCall();
      const { user, chat } = call;
      const outsider = await registerUser(t);
      await saveTurn(outsider, turn(call)).expect(404);
      await saveTurn(outsider, turn(call)).set('X-Company-Id', user.companyId).expect(404);
      expect(await messagesOf(user, chat.id)).toHaveLength(0);

      expect((await saveTurn(user, turn(call, { text: '   ' })).expect(400)).body.message).toBe(
        'Please enter a message',
      );
      await saveTurn(user, turn(call, { role: 'system' })).expect(400);
      await saveTurn(user, turn(call, { eventId: 'a b' })).expect(400);
      await saveTurn(user, turn(call, { conversationId: undefined })).expect(400);

      await request(t.http)
        .patch(`/api/chats/${chat.id}`)
        .set(as(user))
        .send({ isArchived: true })
        .expect(200);
      expect((await saveTurn(user, turn(call)).expect(400)).body.message).toBe(CHAT_ARCHIVED);
    });

    // A transcript is bound to a call the api started, not whatever the browser says.
    it("refuses a turn without a call, under another user's call, for another chat or agent, or after the call", async () => {
      const call = await inCall();
      const { user, chat } = call;

      // No call at all: agent words put into any chat of the user's.
      const noCall = await saveTurn(user, { ...turn(call, { role: 'agent' }), callId: undefined }).expect(
        400,
      );
      expect(noCall.body.message).toBe(VOICE_CALL_NOT_FOUND);
      const madeUp = await saveTurn(user, turn(call, { callId: randomUUID() })).expect(404);
      expect(madeUp.body.message).toBe(VOICE_CALL_NOT_FOUND);

      // Another user's call (in their company, or in this one).
      const other = await inCall();
      await saveTurn(user, turn(call, { callId: other.callId })).expect(404);
      await saveTurn(other.user, turn(call)).expect(404);
      await saveTurn(other.user, turn(call)).set('X-Company-Id', user.companyId).expect(404);

      // This user's call, but another chat: with a voice-less agent, or with another voice agent.
      const textAgent = await createAgent(t, user, null);
      const sent = await request(t.http)
        .post('/api/messages')
        .set(as(user))
        .send({ agentId: textAgent.id, content: 'typed' })
        .expect(201);
      const textChatId = sent.body.chat.id as string;
      const otherVoiceAgent = await createAgent(t, user, 'agent_voice_2');
      const otherChat = await start(t, user, { agentId: otherVoiceAgent.id }).expect(201);
      for (const chatId of [textChatId, (otherChat.body as StartVoiceCallResult).chat.id]) {
        const res = await saveTurn(user, turn(call, { chatId, role: 'agent' })).expect(400);
        expect(res.body.message).toBe(VOICE_CALL_OTHER_CHAT);
      }
      expect(await messagesOf(user, chat.id)).toHaveLength(0);

      // The normal flow.
      await saveTurn(user, turn(call)).expect(201);

      // Ended: turns in flight are taken for a short grace, then none.
      await request(t.http).post(`/api/voice/sessions/${call.callId}/end`).set(as(user)).expect(204);
      await request(t.http).post(`/api/voice/sessions/${call.callId}/end`).set(as(other.user)).expect(404);
      await saveTurn(user, turn(call, { eventId: '2' })).expect(201);
      await t.app
        .get(DataSource)
        .getRepository(VoiceCallEntity)
        .update(call.callId, { expiresAt: new Date(Date.now() - 1000) });
      const late = await saveTurn(user, turn(call, { eventId: '3' })).expect(410);
      expect(late.body.message).toBe(VOICE_CALL_ENDED);
      expect(await messagesOf(user, chat.id)).toHaveLength(2);
    });
  });

  describe('feedback on agent turns', () => {
    it('is stored with the message, can be changed and taken back; only on agent voice turns', async () => {
      const { user, chat, callId } = await inCall();
      const said = await saveTurn(user, {
        callId,
        chatId: chat.id,
        role: 'user',
        text: 'question',
        conversationId: 'c1',
        eventId: '1',
      }).expect(201);
      const answer = await saveTurn(user, {
        callId,
        chatId: chat.id,
        role: 'agent',
        text: 'answer',
        conversationId: 'c1',
        eventId: '2',
      }).expect(201);
      const rate = (u: RegisteredUser, id: string, score: unknown) =>
        request(t.http).put(`/api/voice/messages/${id}/feedback`).set(as(u)).send({ score });

      const otherTab = await connectSocket(t.baseUrl, user.accessToken);
      try {
        expect((await rate(user, answer.body.id, 'like').expect(200)).body.feedback).toBe('like');
        // The user's other tabs get the rating live.
        const pushed = await otherTab.waitFor<ClientEventMap['message.updated']>('message.updated');
        expect(pushed).toMatchObject({ chatId: chat.id, message: { id: answer.body.id, feedback: 'like' } });
      } finally {
        otherTab.close();
      }
      expect((await messagesOf(user, chat.id))[1].feedback).toBe('like');
      expect((await rate(user, answer.body.id, 'dislike').expect(200)).body.feedback).toBe('dislike');
      expect((await rate(user, answer.body.id, null).expect(200)).body.feedback).toBeNull();

      await rate(user, said.body.id, 'like').expect(400);
      await rate(user, answer.body.id, 'love').expect(400);
      await rate(user, 'not-a-uuid', 'like').expect(404);
      const outsider = await registerUser(t);
      await rate(outsider, answer.body.id, 'like').expect(404);
      expect((await messagesOf(user, chat.id))[1].feedback).toBeNull();
    });
  });

  it('stores voice turns with their unique index (a direct duplicate insert is refused)', async () => {
    const { user, chat, callId } = await inCall();
    await saveTurn(user, {
      callId,
      chatId: chat.id,
      role: 'user',
      text: 'x',
      conversationId: 'c',
      eventId: '9',
    }).expect(201);
    const db = t.app.get(DataSource);
    await expect(
      db.query(
        `INSERT INTO messages (chat_id, sender_id, sender_type, content, is_voice_message, voice_event_id)
         VALUES ($1, $2, 'user', 'dup', true, 'c:9')`,
        [chat.id, user.userId],
      ),
    ).rejects.toThrow(/UQ_messages_voice_event/);
  });
});
