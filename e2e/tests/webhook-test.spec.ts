import { expect, test } from '@playwright/test';
import { registerViaApi } from '../fixtures/api';
import { sidebar } from '../fixtures/chat';
import { expectToast, newAccount } from '../fixtures/ui';

test('the webhook tester sends a message to the default agent and shows its parsed and raw answer', async ({
  page,
}) => {
  await registerViaApi(page, newAccount('tester'));
  await page.goto('/chat');
  await sidebar(page).getByRole('button', { name: 'Webhook tester' }).click();
  await expect(page).toHaveURL(/\/webhook-test$/);

  // The built-in demo agent's address, read-only.
  const address = page.getByLabel('Webhook URL', { exact: true });
  await expect(address).toHaveValue(new URL('/api/demo-agent/webhook', page.url()).href);
  await expect(address).not.toBeEditable();

  const testButton = page.getByRole('button', { name: 'Test Webhook' });
  await testButton.click();
  await expectToast(page, 'Message Required', 'Please enter a message to send to the webhook');
  await page.getByLabel('Message', { exact: true }).fill('  \n ');
  await testButton.click();
  await expectToast(page, 'Message Required', 'Please enter a message to send to the webhook');
  // A repeated refusal refreshes the one toast instead of stacking copies.
  await expect(page.getByRole('alert').filter({ hasText: 'Message Required' })).toHaveCount(1);
  await expect(page.getByTestId('webhook-output')).toHaveCount(0);

  await page.getByLabel('Message', { exact: true }).fill('hello there');
  await testButton.click();
  await expect(page.getByRole('heading', { name: 'Output' })).toBeVisible();
  await expect(page.getByText('Status 200')).toBeVisible();
  await expect(page.getByTestId('webhook-output')).toContainText("Hello! I'm the Switchboard demo agent.");
  // The refusal no longer applies once a message went out.
  await expect(page.getByRole('alert').filter({ hasText: 'Message Required' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Raw Response' })).toBeVisible();
  const raw = page.getByTestId('webhook-raw');
  await expect(raw).toContainText('"output"');
  // Indented for reading.
  expect(await raw.innerText()).toMatch(/^\[\n {2}\{\n {4}"output": /);
  expect(JSON.parse(await raw.innerText())).toEqual([
    { output: expect.stringContaining("Hello! I'm the Switchboard demo agent.") as unknown },
  ]);

  // Back to the chat screen.
  await page.getByRole('button', { name: 'Back to chat' }).click();
  await expect(page).toHaveURL(/\/chat$/);
});
