import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Page } from '@playwright/test';
import config from '../playwright.config';
import { agentWebhookUrl, apiHeaders, registerViaApi, type ApiSession } from '../fixtures/api';
import { startApp } from '../fixtures/app-server';
import {
  agentMessage,
  chatRow,
  chatTitle,
  messageInput,
  openChatRow,
  selectAgent,
  sendMessage,
  sidebarAgent,
  userMessage,
} from '../fixtures/chat';
import { twoDevices } from '../fixtures/devices';
import { realtimeConnected } from '../fixtures/realtime';
import { expectToast, newAccount } from '../fixtures/ui';
import {
  agentResponse,
  callButton,
  conversation,
  createVoiceAgent,
  expectClientSent,
  fakeConvaiUrl,
  liveCaption,
  liveConversation,
  scriptVoiceAgent,
  tentativeResponse,
  uniqueVoiceAgentId,
  userTranscript,
  voiceConversations,
  voiceSteps,
} from '../fixtures/voice';

/**
 * Voice calls against the local fake of ElevenLabs (fixtures/fake-convai.ts), in Chromium with
 * its fake microphone (a steady tone) and no permission prompt. The app under test has ELEVENLABS_API_KEY:
 * calls go through signed URLs; the last test starts a second app without it (agent-id path).
 */
const baseArgs = config.projects?.[0]?.use?.launchOptions?.args ?? [];
const executablePath = config.projects?.[0]?.use?.launchOptions?.executablePath;
const FAKE_MICROPHONE = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  // The agent's audio plays without waiting for a gesture (the call starts a few awaits after the click).
  '--autoplay-policy=no-user-gesture-required',
];

test.use({ launchOptions: { executablePath, args: [...baseArgs, ...FAKE_MICROPHONE] } });

async function chatIdByTitle(session: ApiSession, title: string): Promise<string> {
  const res = await session.request.get('/api/chats', { headers: apiHeaders(session) });
  expect(res.ok()).toBe(true);
  const { chats } = (await res.json()) as { chats: Array<{ id: string; title: string }> };
  const chat = chats.find((c) => c.title === title);
  if (!chat) throw new Error(`no chat "${title}"`);
  return chat.id;
}

async function webhookMessages(): Promise<string[]> {
  const res = await fetch(agentWebhookUrl('/requests'));
  const received = (await res.json()) as Array<{ body: { message?: string } }>;
  return received.map((r) => r.body.message ?? '');
}

test('a voice call: transcripts saved and shown live on another device, feedback, typed text, tools, then text again', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const voiceId = uniqueVoiceAgentId();
  await scriptVoiceAgent(voiceId, { echo: true });
  const { a, b, account, session, close } = await twoDevices(browser, 'voice', async (s) => {
    await createVoiceAgent(s, {
      name: 'Voice Agent',
      webhook: agentWebhookUrl('/echo'),
      elevenlabsAgentId: voiceId,
    });
  });
  try {
    await a.context().grantPermissions(['microphone']);
    // Only an agent with a voice agent id has the button.
    await selectAgent(a, 'Assistant');
    await expect(callButton(a)).toHaveCount(0);
    await selectAgent(a, 'Voice Agent');

    await callButton(a, 'Start voice call').click();
    await expectToast(a, 'Voice call started', 'You can now speak with the agent');
    const endButton = callButton(a, 'End voice call');
    await expect(endButton).toHaveAttribute('data-call-status', 'active');
    await expect(endButton).toHaveAttribute('data-agent-speaking', 'false');
    // A call with no active chat creates 'Chat with {agent}'; the other device sees it and opens it.
    await expect(chatTitle(a)).toHaveText('Chat with Voice Agent');
    await openChatRow(b, 'Chat with Voice Agent');
    const chatId = await chatIdByTitle(session, 'Chat with Voice Agent');

    // The signed-URL path, subprotocol convai, the dynamic variables, and the microphone's audio.
    const call = await liveConversation(voiceId);
    expect(call.signed).toBe(true);
    expect(call.protocol).toBe('convai');
    expect(call.initiation?.dynamic_variables).toEqual({
      user_first_name: 'Ada',
      company_name: account.companyName,
      chat_id: chatId,
    });
    await expect.poll(async () => (await conversation(voiceId, call.id)).audioChunks).toBeGreaterThan(3);
    await expectClientSent(voiceId, call.id, { type: 'pong' });

    // The user's final transcript, the agent's tentative response (a caption, never saved), its speech
    // (the button turns green) and its final response: saved, marked as voice, live on the other device.
    await voiceSteps(call.id, [
      userTranscript('Hello, can you hear me?', 1),
      tentativeResponse('Yes, I can'),
    ]);
    await expect(liveCaption(a)).toHaveText('Yes, I can');
    await expect(userMessage(a, 'Hello, can you hear me?')).toBeVisible();
    await expect(userMessage(b, 'Hello, can you hear me?')).toBeVisible();
    await voiceSteps(call.id, [
      { audio: { seconds: 2, eventId: 2 } },
      agentResponse('Yes, I can hear you clearly.', 2),
    ]);
    await expect(endButton).toHaveAttribute('data-agent-speaking', 'true');
    for (const page of [a, b]) {
      await expect(agentMessage(page, 'Yes, I can hear you clearly.')).toBeVisible();
      await expect(
        agentMessage(page, 'Yes, I can hear you clearly.').getByRole('img', { name: 'Voice message' }),
      ).toBeVisible();
      await expect(
        userMessage(page, 'Hello, can you hear me?').getByRole('img', { name: 'Voice message' }),
      ).toBeVisible();
    }
    await expect(liveCaption(a)).toBeHidden();
    await expect(endButton).toHaveAttribute('data-agent-speaking', 'false', { timeout: 15_000 });

    // Like the agent's turn: sent to the provider with its event id, and stored.
    const reply = agentMessage(a, 'Yes, I can hear you clearly.');
    await reply.getByRole('button', { name: 'Like this response', exact: true }).click();
    await expect(reply.getByRole('button', { name: 'Like this response', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expectClientSent(voiceId, call.id, { type: 'feedback', score: 'like', event_id: 2 });

    // Typed text goes into the call (user_activity while typing, then user_message), not to the webhook.
    await messageInput(a).pressSequentially('Typed during the call');
    await expectClientSent(voiceId, call.id, { type: 'user_activity' });
    await messageInput(a).press('Enter');
    await expectClientSent(voiceId, call.id, { type: 'user_message', text: 'Typed during the call' });
    await expect(userMessage(b, 'Typed during the call')).toBeVisible();
    await expect(agentMessage(a, 'You said: Typed during the call')).toBeVisible();
    await expect(agentMessage(b, 'You said: Typed during the call')).toBeVisible();

    // A client tool the app does not define gets an error result.
    await voiceSteps(call.id, [
      {
        send: {
          type: 'client_tool_call',
          client_tool_call: {
            tool_name: 'open_calendar',
            tool_call_id: 'tool_7',
            parameters: { day: 'monday' },
          },
        },
      },
    ]);
    await expectClientSent(voiceId, call.id, {
      type: 'client_tool_result',
      tool_call_id: 'tool_7',
      is_error: true,
    });

    // An interruption drops the caption.
    await voiceSteps(call.id, [tentativeResponse('Let me think')]);
    await expect(liveCaption(a)).toHaveText('Let me think');
    await voiceSteps(call.id, [{ send: { type: 'interruption', interruption_event: { event_id: 3 } } }]);
    await expect(liveCaption(a)).toBeHidden();

    // The user ends the call.
    await endButton.click();
    await expectToast(a, 'Voice call ended', 'The conversation has been terminated');
    await expect(callButton(a, 'Start voice call')).toBeVisible();
    await expect
      .poll(async () => (await conversation(voiceId, call.id)).closed)
      .toMatchObject({ code: 1000, by: 'client' });

    // Nothing of the call reached the webhook; typed text does again now.
    expect(await webhookMessages()).not.toContain('Typed during the call');
    await sendMessage(a, 'Back to typing');
    await expect(agentMessage(a, 'echo: Back to typing')).toBeVisible();
    await expect(agentMessage(b, 'echo: Back to typing')).toBeVisible();

    // Stored: a fresh load shows the call's lines, marked as voice, with the rating.
    await b.reload();
    await openChatRow(b, 'Chat with Voice Agent');
    await expect(userMessage(b, 'Hello, can you hear me?')).toBeVisible();
    await expect(
      agentMessage(b, 'Yes, I can hear you clearly.').getByRole('button', {
        name: 'Like this response',
        exact: true,
      }),
    ).toHaveAttribute('aria-pressed', 'true');
    await expect(chatRow(b, 'Chat with Voice Agent')).toBeVisible();
  } finally {
    await close();
  }
});

test('the server ending the call: its reason is shown; code 1000 is the agent hanging up', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const busy = uniqueVoiceAgentId('e2e_busy');
  const polite = uniqueVoiceAgentId('e2e_polite');
  const silent = uniqueVoiceAgentId('e2e_silent');
  await scriptVoiceAgent(busy, {
    onConnect: [{ wait: 2_000 }, { close: { code: 4002, reason: 'The agent is busy right now' } }],
  });
  await scriptVoiceAgent(polite, {
    onConnect: [{ wait: 2_000 }, { close: { code: 1000, reason: 'Goodbye' } }],
  });
  await scriptVoiceAgent(silent, { onConnect: [{ wait: 2_000 }, { close: { code: 4000, reason: '' } }] });
  await page.context().grantPermissions(['microphone']);
  const session = await registerViaApi(page, newAccount('voiceclose'));
  for (const [name, id] of [
    ['Busy Agent', busy],
    ['Polite Agent', polite],
    ['Silent Agent', silent],
  ])
    await createVoiceAgent(session, { name, webhook: agentWebhookUrl('/echo'), elevenlabsAgentId: id });
  await page.goto('/chat');

  const callOnce = async (agent: string) => {
    await selectAgent(page, agent);
    await callButton(page, 'Start voice call').click();
    await expect(callButton(page, 'End voice call')).toBeVisible();
  };

  await callOnce('Busy Agent');
  await expectToast(page, 'Voice call error', 'The agent is busy right now');
  await expect(callButton(page, 'Start voice call')).toBeVisible();

  await callOnce('Polite Agent');
  await expectToast(page, 'Voice call ended', 'The conversation has been terminated');
  await expect(callButton(page, 'Start voice call')).toBeVisible();

  await callOnce('Silent Agent');
  await expectToast(page, 'Voice call error', 'The connection was closed by the server.');
  await expect(callButton(page, 'Start voice call')).toBeVisible();
});

test('a refused microphone: a clear message, and no call, no chat, no connection', async () => {
  // Its own browser, without the fake permission UI: Chromium refuses the prompt, as when a person
  // clicks Block.
  const browser = await chromium.launch({
    executablePath,
    args: [...baseArgs, '--use-fake-device-for-media-stream', '--deny-permission-prompts'],
  });
  try {
    const context = await browser.newContext({ baseURL: config.use?.baseURL });
    const page = await context.newPage();
    const voiceId = uniqueVoiceAgentId('e2e_nomic');
    const session = await registerViaApi(page, newAccount('voicenomic'));
    await createVoiceAgent(session, {
      name: 'Voice Agent',
      webhook: agentWebhookUrl('/echo'),
      elevenlabsAgentId: voiceId,
    });
    await page.goto('/chat');
    await selectAgent(page, 'Voice Agent');
    await callButton(page, 'Start voice call').click();
    await expectToast(
      page,
      'Error starting voice call',
      'Microphone permission is required for a voice call.',
    );
    await expect(callButton(page, 'Start voice call')).toBeVisible();
    expect(await voiceConversations(voiceId)).toEqual([]);
    const chats = await session.request.get('/api/chats', { headers: apiHeaders(session) });
    expect(await chats.json()).toEqual({ chats: [], nextCursor: null });
  } finally {
    await browser.close();
  }
});

/** A free TCP port on this machine, for a second app. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const CONTRACT_PREFIXES = [
  'PORT',
  'APP_ORIGIN',
  'DATABASE_URL',
  'REDIS_URL',
  'DATA_DIR',
  'PROCESS_ROLE',
  'JWT_SECRET',
  'SMTP_URL',
  'MAIL_FROM',
  'GOOGLE_',
  'ELEVENLABS_',
  'WEBHOOK_',
  'DEFAULT_AGENT_WEBHOOK',
  'METRICS_PORT',
  'HOST',
];

test('without ELEVENLABS_API_KEY: a public agent is called by its agent id', async ({ browser }) => {
  test.setTimeout(180_000);
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-e2e-voice-'));
  fs.chmodSync(dataDir, 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env))
    if (CONTRACT_PREFIXES.some((p) => name.startsWith(p))) delete env[name];
  Object.assign(env, {
    PORT: String(port),
    APP_ORIGIN: baseUrl,
    DATA_DIR: dataDir,
    ELEVENLABS_API_URL: fakeConvaiUrl(),
    ELEVENLABS_WS_URL: fakeConvaiUrl().replace(/^http/, 'ws'),
    WEBHOOK_ALLOWED_HOSTS: new URL(agentWebhookUrl()).host,
    RATE_LIMIT_SCALE: '50',
  });
  const app = await startApp({
    repoRoot: path.resolve(__dirname, '..', '..'),
    env,
    baseUrl,
    logFile: path.join(test.info().outputDir, 'public-voice-app.log'),
    dataDir,
  });
  const context = await browser.newContext({ baseURL: baseUrl });
  try {
    await context.grantPermissions(['microphone']);
    const page: Page = await context.newPage();
    const voiceId = uniqueVoiceAgentId('e2e_public');
    await scriptVoiceAgent(voiceId, { onConnect: [agentResponse('Hello from a public agent', 1)] });
    const session = await registerViaApi(page, newAccount('voicepublic'));
    await createVoiceAgent(session, {
      name: 'Public Agent',
      webhook: agentWebhookUrl('/echo'),
      elevenlabsAgentId: voiceId,
    });
    const connected = realtimeConnected(page);
    await page.goto('/chat');
    await connected;
    await expect(sidebarAgent(page, 'Public Agent')).toBeVisible();
    await selectAgent(page, 'Public Agent');
    await callButton(page, 'Start voice call').click();
    await expectToast(page, 'Voice call started', 'You can now speak with the agent');
    await expect(agentMessage(page, 'Hello from a public agent')).toBeVisible();
    const call = await liveConversation(voiceId);
    expect(call.signed).toBe(false);
    expect(call.agentId).toBe(voiceId);
    await callButton(page, 'End voice call').click();
    await expectToast(page, 'Voice call ended', 'The conversation has been terminated');
  } finally {
    await context.close();
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
