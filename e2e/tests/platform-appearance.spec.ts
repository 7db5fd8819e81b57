import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { registerViaApi, type ApiSession } from '../fixtures/api';
import { realtimeConnected } from '../fixtures/realtime';
import { promoteToSuperadmin } from '../fixtures/superadmin';
import { expectToast, newAccount } from '../fixtures/ui';

const INVALID_COLOR = 'Invalid color format. Please use valid hex colors (e.g. #000000)';
/** A 30×10 PNG: the logo a superadmin uploads. */
const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAB4AAAAKCAYAAACjd+4vAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAIUlEQVQ4jWM4oRH1fyAww6jFJ0aDWmM0cUWNZqf/5KQDAAmIratnnTCCAAAAAElFTkSuQmCC',
  'base64',
);

interface Appearance {
  logoUrl: string | null;
  faviconUrl: string | null;
  accentColor: string;
  colors: { light_theme: Record<string, string>; dark_theme: Record<string, string> };
}

/** A CSS custom property as the page resolves it on <html> (the appearance's 'H S% L%' triples). */
function cssVariable(page: Page, name: string): Promise<string> {
  return page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name);
}

/** antd's own token, as its CSS-variable theme exposes it inside the app. */
function antdToken(page: Page, name: string): Promise<string> {
  return page
    .locator('.ant-app')
    .first()
    .evaluate((el, n) => getComputedStyle(el).getPropertyValue(n).trim(), name);
}

async function readAppearance(request: APIRequestContext): Promise<Appearance> {
  const res = await request.get('/api/appearance');
  expect(res.status()).toBe(200);
  return (await res.json()) as Appearance;
}

/** Puts back what was saved before the test, so that other specs see the look they expect. */
async function restore(admin: ApiSession, before: Appearance): Promise<void> {
  const headers = { authorization: `Bearer ${admin.accessToken}` };
  const settings = await admin.request.put('/api/admin/settings', {
    headers,
    data: { logoUrl: before.logoUrl, faviconUrl: before.faviconUrl, accentColor: before.accentColor },
  });
  expect(settings.status(), await settings.text()).toBe(200);
  const colors = await admin.request.put('/api/admin/colors', { headers, data: before.colors });
  expect(colors.status(), await colors.text()).toBe(200);
}

/** A signed-up superadmin (promoted by the operator CLI) with a browser page of their own. */
async function superadminPage(page: Page): Promise<ApiSession> {
  const account = newAccount('appearance-admin');
  const session = await registerViaApi(page, account);
  await promoteToSuperadmin(account.email);
  return session;
}

test('a new accent colour and logo reach another user’s open page live, and the sign-in page', async ({
  browser,
}) => {
  const adminContext = await browser.newContext({ colorScheme: 'light' });
  const memberContext = await browser.newContext({ colorScheme: 'light' });
  const visitorContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  const admin = await superadminPage(adminPage);
  const before = await readAppearance(adminPage.request);
  try {
    // An ordinary user, signed in on their own, has the chat open.
    const memberPage = await memberContext.newPage();
    await registerViaApi(memberPage, newAccount('appearance-member'));
    const connected = realtimeConnected(memberPage);
    await memberPage.goto('/chat');
    await connected;
    await expect(memberPage.getByRole('heading', { name: 'Switchboard' })).toBeVisible();
    const primaryBefore = await cssVariable(memberPage, '--primary');
    expect(primaryBefore).not.toBe('146 79.9% 35.1%');

    await adminPage.goto('/admin/settings');
    await expect(adminPage.getByText('Application Settings')).toBeVisible();
    await expect(adminPage.getByText('Recommended size: 150x50px')).toBeVisible();
    await adminPage
      .locator('input[type="file"]')
      .first()
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO_PNG });
    await expect(adminPage.getByLabel('Logo URL', { exact: true })).toHaveValue(
      /^\/api\/files\/[0-9a-f-]{36}$/,
    );
    const logoUrl = await adminPage.getByLabel('Logo URL', { exact: true }).inputValue();
    await adminPage.getByLabel('Accent Color', { exact: true }).fill('#12a150');
    await adminPage.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(adminPage, 'Settings saved', 'Your changes have been applied successfully.');

    // The member's page follows without a reload: CSS variables, antd's primary colour, the logo.
    await expect.poll(() => cssVariable(memberPage, '--primary')).toBe('146 79.9% 35.1%');
    await expect.poll(() => antdToken(memberPage, '--ant-color-primary')).toBe('#12a150');
    await expect(memberPage.getByRole('img', { name: 'Switchboard' })).toHaveAttribute('src', logoUrl);

    // Signed out, the sign-in card shows the saved logo.
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    await expect(visitor.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    const signInLogo = visitor.getByRole('img', { name: 'Switchboard' });
    await expect(signInLogo).toHaveAttribute('src', logoUrl);
    await expect(signInLogo).toBeVisible();
    await expect.poll(() => cssVariable(visitor, '--primary')).toBe('146 79.9% 35.1%');
  } finally {
    await restore(admin, before);
    await Promise.all([adminContext.close(), memberContext.close(), visitorContext.close()]);
  }
});

test('an invalid hex colour is refused with the spec’s message', async ({ page }) => {
  await superadminPage(page);
  await page.goto('/admin/settings');
  const accent = page.getByLabel('Accent Color', { exact: true });
  await accent.fill('#12345');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText(INVALID_COLOR)).toBeVisible();

  await page.goto('/admin/colors');
  const primary = page.getByRole('tabpanel').getByLabel('Primary', { exact: true });
  await primary.fill('#GG0000');
  await expect(page.getByRole('button', { name: 'Reset Primary' })).toBeVisible();
  await page.getByRole('button', { name: 'Apply Primary' }).click();
  await expect(page.getByText(INVALID_COLOR)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
});

test('a dark-theme colour applied and saved changes another user’s dark theme live', async ({ browser }) => {
  const adminContext = await browser.newContext({ colorScheme: 'light' });
  const memberContext = await browser.newContext({ colorScheme: 'dark' });
  const adminPage = await adminContext.newPage();
  const admin = await superadminPage(adminPage);
  const before = await readAppearance(adminPage.request);
  try {
    const memberPage = await memberContext.newPage();
    await registerViaApi(memberPage, newAccount('appearance-dark'));
    const connected = realtimeConnected(memberPage);
    await memberPage.goto('/chat');
    await connected;
    await expect(memberPage.locator('html')).toHaveAttribute('data-theme', 'dark');
    const headerBefore = await memberPage
      .getByRole('banner')
      .evaluate((el) => getComputedStyle(el).backgroundColor);

    await adminPage.goto('/admin/colors');
    await adminPage.getByRole('tab', { name: 'Dark Theme' }).click();
    const background = adminPage.getByRole('tabpanel').getByLabel('Background', { exact: true });
    await background.fill('#201030');
    // Pending until Apply: nothing to save yet.
    await expect(adminPage.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    await adminPage.getByRole('button', { name: 'Apply Background' }).click();
    await expect(adminPage.getByRole('button', { name: 'Apply Background' })).toHaveCount(0);
    await adminPage.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(adminPage, 'Color settings saved', 'Your changes have been applied successfully.');

    await expect.poll(() => cssVariable(memberPage, '--background')).toBe('270 50% 12.5%');
    await expect.poll(() => antdToken(memberPage, '--ant-color-bg-base')).toBe('#201030');
    await expect
      .poll(() => memberPage.getByRole('banner').evaluate((el) => getComputedStyle(el).backgroundColor))
      .not.toBe(headerBefore);
    // The admin's own page is in the light theme: the light variables are untouched.
    expect(await cssVariable(adminPage, '--background')).not.toBe('270 50% 12.5%');
  } finally {
    await restore(admin, before);
    await Promise.all([adminContext.close(), memberContext.close()]);
  }
});
