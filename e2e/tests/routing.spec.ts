import { expect, test } from '@playwright/test';
import { newAccount, register, signOut } from '../fixtures/ui';

test('an unknown path shows the not-found page with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});

test('/chat sends a signed-out visitor to the sign-in screen', async ({ page }) => {
  await page.goto('/chat');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});

test('a signed-in user is sent from / to /chat, also after a reload', async ({ page }) => {
  await register(page, newAccount('margaret', { fullName: 'Margaret Hamilton' }));
  await page.goto('/');
  await expect(page).toHaveURL(/\/chat$/);
  await page.reload();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByTestId('header-user-name')).toHaveText('Margaret Hamilton');
});

test('the API refuses unauthenticated calls and unknown API paths', async ({ request }) => {
  expect((await request.get('/api/me')).status()).toBe(401);
  expect((await request.get('/api/no-such-endpoint')).status()).toBe(404);
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok' });
});

test('loading the app signed out, signed in and after logging out logs no error and no refused request', async ({
  page,
}) => {
  // A signed-out visitor is not an error: no session probe answered 401, nothing in the console.
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await page.goto('/chat');
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await register(page, newAccount('quiet', { fullName: 'Quinn Quiet' }));
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  await signOut(page);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();

  expect(problems).toEqual([]);
});
