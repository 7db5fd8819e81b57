import { expect, test } from '@playwright/test';
import { MARKDOWN_REPLY } from '../fixtures/agent-webhook';
import { agentWebhookUrl, createAgent, registerViaApi, releaseSlowReply } from '../fixtures/api';
import {
  agentMessage,
  chatRow,
  chatsTab,
  chatTitle,
  exampleQuestions,
  messageInput,
  selectAgent,
  sendMessage,
  sidebar,
  sidebarAgent,
  typingIndicator,
  userMessage,
  welcomeHeading,
} from '../fixtures/chat';
import { realtimeConnected } from '../fixtures/realtime';
import { expectToast, newAccount, register } from '../fixtures/ui';

/** Spec: agents without their own questions show four built-in prompts (the backend's canned ones). */
const BUILT_IN_QUESTIONS = [
  'I need someone to talk to',
  "I'm facing a challenge and could use some advice",
  'Help me set a goal and plan how to reach it',
  'I want to share a happy moment from my day',
];

test('a fresh user chats with the default agent out of the box', async ({ page }) => {
  await register(page, newAccount('fresh'));

  // The default agent exists and is selected: its welcome view with the four built-in prompts.
  await expect(sidebarAgent(page, 'Assistant')).toBeVisible();
  await expect(welcomeHeading(page, 'Assistant')).toBeVisible();
  await expect(exampleQuestions(page)).toHaveText(BUILT_IN_QUESTIONS);
  await expect(sidebar(page).getByText('No active chats')).toBeVisible();
  await expect(chatTitle(page)).toHaveText('New Chat');

  // Blank text does not send.
  await messageInput(page).fill('   ');
  await expect(page.getByRole('button', { name: 'Send message' })).toBeDisabled();

  await sendMessage(page, 'hello');
  await expect(userMessage(page, 'hello')).toBeVisible();
  await expect(agentMessage(page, "Hello! I'm the Switchboard demo agent.")).toBeVisible();
  await expect(typingIndicator(page)).toBeHidden();

  // The first message created 'Chat with {agent}', listed with the reply's 30-character preview.
  await expect(chatTitle(page)).toHaveText('Chat with Assistant');
  await expect(chatRow(page, 'Chat with Assistant')).toContainText("Hello! I'm the Switchboard dem...");
  await expect(messageInput(page)).toBeEnabled();
});

test('the welcome view shows the agent’s questions, and clicking one sends it', async ({ page }) => {
  const session = await registerViaApi(page, newAccount('welcome'));
  await createAgent(session, {
    name: 'Echo Bot',
    webhook: agentWebhookUrl('/echo'),
    defaultQuestions: ['What is on my calendar today?', 'Summarise my unread mail'],
  });
  await page.goto('/chat');

  await selectAgent(page, 'Echo Bot');
  await expect(exampleQuestions(page)).toHaveText([
    'What is on my calendar today?',
    'Summarise my unread mail',
  ]);

  await exampleQuestions(page).filter({ hasText: 'Summarise my unread mail' }).click();
  await expect(userMessage(page, 'Summarise my unread mail')).toBeVisible();
  await expect(agentMessage(page, 'echo: Summarise my unread mail')).toBeVisible();
  await expect(welcomeHeading(page, 'Echo Bot')).toBeHidden();
  await expect(chatTitle(page)).toHaveText('Chat with Echo Bot');

  // The conversation goes on with Enter; Shift+Enter keeps a line break in the same message.
  const height = async () => (await messageInput(page).boundingBox())!.height;
  const oneLine = await height();
  await messageInput(page).fill('first line');
  await messageInput(page).press('Shift+Enter');
  await messageInput(page).pressSequentially('second line');
  // The box grows with its text (spec: to at most 150 px, then it scrolls).
  expect(await height()).toBeGreaterThan(oneLine + 10);
  await messageInput(page).fill(Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n'));
  expect(await height()).toBeLessThanOrEqual(150);
  expect(await height()).toBeGreaterThan(120);
  await messageInput(page).fill('first line\nsecond line');
  await messageInput(page).press('Enter');
  await expect(agentMessage(page, 'echo: first line')).toBeVisible();
  await expect(userMessage(page, 'first line')).toHaveText(/first line\s*second line/);
  expect(await userMessage(page, 'first line').innerText()).toContain('first line\nsecond line');
});

test('agent Markdown: links open in a new tab, code is formatted, raw HTML is not rendered', async ({
  page,
}) => {
  const session = await registerViaApi(page, newAccount('markdown'));
  await createAgent(session, { name: 'Formatter', webhook: agentWebhookUrl('/markdown') });
  await page.goto('/chat');
  await selectAgent(page, 'Formatter');

  await sendMessage(page, 'show me some markdown');
  const reply = agentMessage(page, 'Here is');
  await expect(reply).toBeVisible();

  await expect(reply.locator('strong', { hasText: /^bold$/ })).toHaveCount(1);
  const link = reply.getByRole('link', { name: 'documentation link' });
  await expect(link).toHaveAttribute('href', 'https://example.com/docs');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  await expect(reply.locator('pre code')).toHaveText('const answer = 42;');

  // Neither the <b>, the <img onerror> nor the <script> of the reply became elements.
  expect(MARKDOWN_REPLY).toContain('data-e2e-raw-html');
  await expect(reply.locator('[data-e2e-raw-html]')).toHaveCount(0);
  await expect(reply.locator('script, img[onerror]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __e2eXss?: boolean }).__e2eXss)).toBeUndefined();
});

test('reloading while the agent answers shows the typing indicator again, then the reply', async ({
  page,
}) => {
  const session = await registerViaApi(page, newAccount('reload'));
  await createAgent(session, { name: 'Slowpoke', webhook: agentWebhookUrl('/slow?ms=30000') });
  await page.goto('/chat');
  await selectAgent(page, 'Slowpoke');

  const question = `Take your time ${Date.now()}`;
  await sendMessage(page, question);
  await expect(userMessage(page, question)).toBeVisible();
  await expect(typingIndicator(page)).toBeVisible();
  await expect(messageInput(page)).toBeDisabled();

  const connected = realtimeConnected(page);
  await page.reload();
  await expect(userMessage(page, question)).toBeVisible();
  await expect(typingIndicator(page)).toBeVisible();
  await expect(messageInput(page)).toBeDisabled();
  await connected;

  // The webhook answers now: the reply arrives live, without another reload.
  await releaseSlowReply(page.request, question);
  await expect(agentMessage(page, `slow: ${question}`)).toBeVisible();
  await expect(typingIndicator(page)).toBeHidden();
  await expect(messageInput(page)).toBeEnabled();
  await expect(chatsTab(page, 'Active')).toBeVisible();
});

test('a failing or malformed agent never leaves the typing indicator on', async ({ page }) => {
  const session = await registerViaApi(page, newAccount('failing'));
  await createAgent(session, { name: 'Broken', webhook: agentWebhookUrl('/status/404') });
  await createAgent(session, { name: 'Garbled', webhook: agentWebhookUrl('/malformed') });
  const connected = realtimeConnected(page);
  await page.goto('/chat');
  await connected;

  // A 4xx answer: the user's message stays, the failure is shown, the indicator clears, sending works.
  await selectAgent(page, 'Broken');
  await sendMessage(page, 'anyone home?');
  await expectToast(page, 'Error getting agent response', 'Webhook response error: 404');
  await expect(userMessage(page, 'anyone home?')).toBeVisible();
  await expect(typingIndicator(page)).toBeHidden();
  await expect(messageInput(page)).toBeEnabled();
  await expect(page.getByTestId('agent-message')).toHaveCount(0);

  // An answer that is not `[{"output": ...}]`: the spec's apology.
  await selectAgent(page, 'Garbled');
  await sendMessage(page, 'say something');
  await expect(agentMessage(page, "Sorry, I couldn't process your request correctly.")).toBeVisible();
  await expect(typingIndicator(page)).toBeHidden();
});

test('under 768px the sidebar is a slide-over opened from the header', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  const session = await registerViaApi(page, newAccount('mobile'));
  await createAgent(session, { name: 'Echo Bot', webhook: agentWebhookUrl('/echo') });
  await page.goto('/chat');
  await expect(welcomeHeading(page, 'Assistant')).toBeVisible();
  await expect(sidebar(page)).toBeHidden();

  await page.getByRole('button', { name: 'Open sidebar' }).click();
  await sidebarAgent(page, 'Echo Bot').click();
  // Choosing an agent closes the slide-over.
  await expect(sidebar(page)).toBeHidden();
  await expect(welcomeHeading(page, 'Echo Bot')).toBeVisible();
  await sendMessage(page, 'from my phone');
  await expect(agentMessage(page, 'echo: from my phone')).toBeVisible();
});
