import { expect, test, type Page } from '@playwright/test';
import {
  acceptViaApi,
  agentWebhookUrl,
  apiHeaders,
  createAgent,
  inviteViaApi,
  registerViaApi,
  type ApiSession,
} from '../fixtures/api';
import {
  agentMessage,
  chatRow,
  messageInput,
  selectAgent,
  sendMessage,
  typingIndicator,
  userMessage,
} from '../fixtures/chat';
import { realtimeConnected } from '../fixtures/realtime';
import { promoteToSuperadmin } from '../fixtures/superadmin';
import {
  chooseFromMenu,
  chooseFromUserMenu,
  dismissToasts,
  expectToast,
  newAccount,
  tableRows,
  userMenuButton,
} from '../fixtures/ui';

/** Sends a message to the agent in a new chat (POST /api/messages), as the chat screen's first message does. */
async function send(session: ApiSession, agentId: string, content: string): Promise<void> {
  const res = await session.request.post('/api/messages', {
    headers: apiHeaders(session),
    data: { agentId, content },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** The company's numbers as the API gives them (the test's own view, to wait for the replies). */
async function totals(session: ApiSession) {
  const res = await session.request.get('/api/company/insights', { headers: apiHeaders(session) });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { total: { messages: number; replies: number; failed: number } }).total;
}

const card = (page: Page, testId: string) => page.getByTestId(testId);

test('an admin reads the agents’ numbers, live, replays the failed deliveries; a plain member gets neither the page nor the API', async ({
  browser,
}) => {
  const owner = newAccount('insights-owner', { companyName: `Insights Co ${Date.now()}` });
  const member = newAccount('insights-member', { companyName: `Member Co ${Date.now()}` });
  const ownerContext = await browser.newContext();
  const memberContext = await browser.newContext();
  try {
    const ownerPage = await ownerContext.newPage();
    const ownerSession = await registerViaApi(ownerPage, owner);
    const echo = await createAgent(ownerSession, { name: 'Echo', webhook: agentWebhookUrl('/echo') });
    // The fixture answers 404 on a path it does not know: an HTTP status failure, not tried again.
    const failing = await createAgent(ownerSession, { name: 'Failing', webhook: agentWebhookUrl('/gone') });

    for (let i = 1; i <= 3; i++) await send(ownerSession, echo.id, `insights ${i}`);
    for (let i = 1; i <= 2; i++) await send(ownerSession, failing.id, `doomed ${i}`);
    await expect.poll(async () => totals(ownerSession)).toMatchObject({ messages: 5, replies: 3, failed: 2 });

    const connected = realtimeConnected(ownerPage);
    await ownerPage.goto('/company/admin/insights');
    await connected;
    await expect(ownerPage.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible();
    await expect(card(ownerPage, 'insights-messages')).toContainText('5');
    await expect(card(ownerPage, 'insights-replies')).toContainText('3');
    await expect(card(ownerPage, 'insights-failures')).toContainText('2');
    await expect(card(ownerPage, 'insights-latency-p50')).toContainText(/\d+(\.\d)? (ms|s)/);

    const perAgent = ownerPage.getByRole('table', { name: 'Per agent' });
    const echoRow = perAgent.getByRole('row').filter({ hasText: 'Echo' });
    await expect(echoRow.getByRole('cell').nth(1)).toHaveText('3');
    await expect(echoRow.getByRole('cell').nth(7)).toHaveText(/\d+(\.\d)? (ms|s)/);
    const failingRow = perAgent.getByRole('row').filter({ hasText: 'Failing' });
    await expect(failingRow).toContainText('2: HTTP status 2');
    const kinds = ownerPage.getByRole('table', { name: 'Failures by kind' });
    await expect(kinds.getByRole('row').filter({ hasText: 'HTTP status' })).toContainText('2');

    // Each chart's numbers, in a table a keyboard and a screen reader reach.
    await ownerPage.getByText('The numbers of this chart').first().click();
    const traffic = ownerPage.getByRole('table', { name: 'Messages and failures' });
    await expect(traffic).toBeVisible();

    // A new message moves today's counter without a reload.
    await send(ownerSession, echo.id, 'insights live');
    await expect(card(ownerPage, 'insights-messages')).toContainText('6');
    await expect(card(ownerPage, 'insights-replies')).toContainText('4');

    // The failed deliveries are in the delivery log; the webhook put right, Replay answers in the chat, live.
    const chatPage = await ownerContext.newPage();
    const chatConnected = realtimeConnected(chatPage);
    await chatPage.goto('/chat');
    await chatConnected;
    await expect(chatRow(chatPage, 'Chat with Failing')).toHaveCount(2);
    // The newest chat first: 'doomed 2', the newest delivery in the log too.
    await chatRow(chatPage, 'Chat with Failing')
      .first()
      .getByText('Chat with Failing', { exact: true })
      .click();
    await expect(userMessage(chatPage, 'doomed 2')).toBeVisible();
    await expect(chatPage.getByTestId('no-reply')).toContainText('The agent did not reply.');

    await ownerPage.getByRole('menuitem', { name: 'Delivery log' }).click();
    await expect(ownerPage.getByRole('heading', { level: 1, name: 'Delivery log' })).toBeVisible();
    await ownerPage.getByRole('combobox', { name: 'Outcome' }).click();
    await ownerPage.getByTitle('Failed (any kind)').click();
    const log = ownerPage.getByRole('table', { name: 'Deliveries' });
    const failedRows = log.getByRole('row').filter({ hasText: 'Failing' });
    await expect(failedRows).toHaveCount(2);
    await expect(failedRows.first()).toContainText('HTTP status');
    await expect(failedRows.first()).toContainText('404');
    await expect(log.getByRole('row').filter({ hasText: 'Echo' })).toHaveCount(0);

    const fixed = await ownerSession.request.patch(`/api/agents/${failing.id}`, {
      headers: apiHeaders(ownerSession),
      data: { webhook: agentWebhookUrl('/echo') },
    });
    expect(fixed.ok(), await fixed.text()).toBe(true);
    await failedRows
      .first()
      .getByRole('button', { name: /^Replay the delivery/ })
      .click();
    await expectToast(ownerPage, 'Replay queued: the reply goes to the user’s chat.');
    await expect(agentMessage(chatPage, 'echo: doomed 2')).toBeVisible();
    await expect(chatPage.getByTestId('no-reply')).toHaveCount(0);
    await expect(failedRows.first()).toContainText('Replayed');
    await dismissToasts(ownerPage);

    // A plain member of the company: no menu entry, the address sends them back, the API says 403.
    const memberPage = await memberContext.newPage();
    const memberSession = await registerViaApi(memberPage, member);
    await acceptViaApi(memberSession, (await inviteViaApi(ownerSession, member.email, 'user')).link);
    const memberConnected = realtimeConnected(memberPage);
    await memberPage.goto('/chat');
    await memberConnected;
    await chooseFromUserMenu(memberPage, owner.companyName);
    await expect(memberPage.getByTestId('header-company-name')).toHaveText(owner.companyName);
    await userMenuButton(memberPage).click();
    await expect(memberPage.getByRole('menuitem', { name: 'Company Admin' })).toHaveCount(0);
    await memberPage.keyboard.press('Escape');
    await memberPage.goto('/company/admin/insights');
    await expectToast(memberPage, 'Access denied');
    await expect(memberPage).toHaveURL(/\/chat$/);
    await dismissToasts(memberPage);
    const refused = await memberSession.request.get('/api/company/insights', {
      headers: { ...apiHeaders(memberSession), 'x-company-id': ownerSession.companyId },
    });
    expect(refused.status()).toBe(403);
  } finally {
    await ownerContext.close();
    await memberContext.close();
  }
});

test('a platform admin sets a daily message limit of 2: the third message is refused with the quota message, and nothing of it is stored', async ({
  page,
}) => {
  const account = newAccount('quota', { companyName: `Quota Co ${Date.now()}` });
  const session = await registerViaApi(page, account);
  await createAgent(session, { name: 'Quota Echo', webhook: agentWebhookUrl('/echo') });
  await promoteToSuperadmin(account.email);

  // Platform Admin → Companies → View Details: the daily limit per user.
  await page.goto('/admin/companies');
  await page.getByRole('searchbox', { name: 'Search companies' }).fill(account.companyName);
  const row = tableRows(page).filter({ hasText: account.companyName });
  await expect(row).toHaveCount(1);
  await chooseFromMenu(
    page,
    row.getByRole('button', { name: `Actions for ${account.companyName}` }),
    'View Details',
  );
  const details = page.getByRole('dialog', { name: `Company details: ${account.companyName}` });
  await details.getByLabel('Messages per user per day (UTC, empty for no limit)').fill('2');
  await details.getByRole('button', { name: 'Save limits' }).click();
  await expectToast(page, 'Limits saved');
  await expect(details.locator('tr').filter({ hasText: 'Messages per user per day (UTC)' })).toContainText(
    '2',
  );
  await page.keyboard.press('Escape');

  const connected = realtimeConnected(page);
  await page.goto('/chat');
  await connected;
  await selectAgent(page, 'Quota Echo');
  for (const text of ['quota one', 'quota two']) {
    await sendMessage(page, text);
    await expect(agentMessage(page, `echo: ${text}`)).toBeVisible();
    await expect(typingIndicator(page)).toBeHidden();
  }
  await messageInput(page).fill('quota three');
  await messageInput(page).press('Enter');
  await expectToast(
    page,
    'Error sending message',
    "You have reached your company's limit of 2 messages per user per day. It resets at 00:00 UTC.",
  );
  // The typed text stays in the composer; nothing of it shows or is stored.
  await expect(messageInput(page)).toHaveValue('quota three');
  await expect(userMessage(page, 'quota three')).toHaveCount(0);
  await page.reload();
  await expect(userMessage(page, 'quota two')).toBeVisible();
  await expect(userMessage(page, 'quota three')).toHaveCount(0);
  const chats = await session.request.get('/api/chats', { headers: apiHeaders(session) });
  const [chat] = ((await chats.json()) as { chats: Array<{ id: string }> }).chats;
  const page1 = await session.request.get(`/api/chats/${chat.id}/messages`, { headers: apiHeaders(session) });
  const { messages } = (await page1.json()) as { messages: Array<{ senderType: string; content: string }> };
  expect(messages.filter((m) => m.senderType === 'user').map((m) => m.content)).toEqual([
    'quota one',
    'quota two',
  ]);
});
