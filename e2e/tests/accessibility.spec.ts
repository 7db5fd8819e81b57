import { expect, test, type Browser, type Page } from '@playwright/test';
import { agentWebhookUrl, apiHeaders, createAgent, registerViaApi } from '../fixtures/api';
import { expectNoAxeViolations } from '../fixtures/axe';
import {
  agentMessage,
  messageInput,
  selectAgent,
  sendMessage,
  sidebar,
  welcomeHeading,
} from '../fixtures/chat';
import { linkFrom, waitForMail } from '../fixtures/mailbox';
import { promoteToSuperadmin } from '../fixtures/superadmin';
import { chooseFromUserMenu, newAccount, uniqueEmail } from '../fixtures/ui';

/**
 * axe-core finds no moderate, serious or critical violation (WCAG 2.0/2.1 A and AA and axe's best
 * practices) on any page, in the light and the dark theme. The theme is the system's (the app's default
 * mode follows it), emulated per test. Each test visits several pages and checks each softly, so one run
 * lists everything; each page's count is printed (and appended to test-results/axe-summary.txt).
 */

const THEMES = ['light', 'dark'] as const;

/** A reply with a link, a fenced code block and inline code: the thread's Markdown is checked too. */
const MARKDOWN_MESSAGE = 'show me markdown';

async function newSignedOutPage(browser: Browser, colorScheme: 'light' | 'dark'): Promise<Page> {
  const context = await browser.newContext({ colorScheme });
  return context.newPage();
}

for (const colorScheme of THEMES) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test(`public pages pass axe (${colorScheme})`, async ({ page, browser }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
      await expectNoAxeViolations(page, `${colorScheme} sign-in`);

      await page.goto('/register');
      await expect(page.getByRole('heading', { name: 'Create an Account' })).toBeVisible();
      await expectNoAxeViolations(page, `${colorScheme} register`);

      await page.goto('/forgot-password');
      await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
      await expectNoAxeViolations(page, `${colorScheme} forgot password`);

      await page.goto('/docs/webhook-signatures');
      await expect(page.getByRole('heading', { name: 'Verifying webhook signatures' })).toBeVisible();
      await expectNoAxeViolations(page, `${colorScheme} webhook signatures guide`);

      await page.goto('/this-page-does-not-exist');
      await expect(page.getByText('Oops! Page not found')).toBeVisible();
      await expectNoAxeViolations(page, `${colorScheme} 404`);

      // Reset password and invitation: from real mailed links, opened by someone signed out.
      const owner = newAccount('axe-owner');
      const ownerPage = await newSignedOutPage(browser, colorScheme);
      const session = await registerViaApi(ownerPage, owner);
      const reset = await ownerPage.request.post('/api/auth/forgot-password', {
        data: { email: owner.email },
      });
      expect(reset.ok(), await reset.text()).toBe(true);
      const resetLink = linkFrom(
        await waitForMail(owner.email, { matching: /reset-password/ }),
        '/reset-password',
      );
      await page.goto(resetLink.pathname + resetLink.search);
      await expect(page.getByLabel('New Password', { exact: true })).toBeVisible();
      await expectNoAxeViolations(page, `${colorScheme} reset password`);

      const invitation = await ownerPage.request.post('/api/company/invitations', {
        headers: apiHeaders(session),
        data: { email: uniqueEmail('axe-invitee'), role: 'user' },
      });
      expect(invitation.status(), await invitation.text()).toBe(201);
      const { link } = (await invitation.json()) as { link: string };
      const invitationUrl = new URL(link);
      await page.goto(invitationUrl.pathname + invitationUrl.search);
      await expect(page.getByRole('heading', { name: 'Company Invitation' })).toBeVisible();
      await expectNoAxeViolations(page, `${colorScheme} invitation`);
      await ownerPage.context().close();
    });

    test(`the chat, its dialogs and the webhook tester pass axe (${colorScheme})`, async ({ page }) => {
      const session = await registerViaApi(page, newAccount('axe-chat'));
      await createAgent(session, { name: 'Markdown Bot', webhook: agentWebhookUrl('/markdown') });
      await page.goto('/chat');
      await expect(welcomeHeading(page, 'Assistant')).toBeVisible();
      await expect(messageInput(page)).toBeVisible();
      await expectNoAxeViolations(page, `${colorScheme} chat welcome`);

      await selectAgent(page, 'Markdown Bot');
      await sendMessage(page, MARKDOWN_MESSAGE);
      await expect(agentMessage(page, 'documentation link')).toBeVisible();
      await expect(page.locator('[data-testid="agent-message"] pre')).toBeVisible();
      await expectNoAxeViolations(page, `${colorScheme} chat conversation`);

      await sidebar(page).getByRole('button', { name: 'Settings' }).click();
      const settings = page.getByRole('dialog', { name: 'Settings' });
      await expect(settings).toBeVisible();
      await expectNoAxeViolations(page, `${colorScheme} settings dialog`);
      await settings.getByRole('tab', { name: 'Agents' }).click();
      await settings.getByText('Markdown Bot', { exact: true }).click();
      await expect(settings.getByRole('tab', { name: 'Details' })).toHaveAttribute('aria-selected', 'true');
      await expectNoAxeViolations(page, `${colorScheme} settings agent details`);
      await page.keyboard.press('Escape');
      await expect(settings).toBeHidden();

      await chooseFromUserMenu(page, 'Profile');
      const profile = page.getByRole('dialog', { name: 'Profile Settings' });
      await expect(profile).toBeVisible();
      await expectNoAxeViolations(page, `${colorScheme} profile dialog`);
      await page.keyboard.press('Escape');
      await expect(profile).toBeHidden();

      await page.goto('/webhook-test');
      await expect(page.getByRole('button', { name: 'Test Webhook' })).toBeVisible();
      await page.getByLabel('Message', { exact: true }).fill('hello there');
      await page.getByRole('button', { name: 'Test Webhook' }).click();
      await expect(page.getByTestId('webhook-raw')).toBeVisible();
      await expectNoAxeViolations(page, `${colorScheme} webhook tester`);
    });

    test(`company admin pages pass axe (${colorScheme})`, async ({ page }) => {
      const session = await registerViaApi(page, newAccount('axe-admin'));
      // Something in every table.
      await page.request.post('/api/company/invitations', {
        headers: apiHeaders(session),
        data: { email: uniqueEmail('axe-pending'), role: 'admin' },
      });
      const pages = [
        ['users', 'Company Users'],
        ['invitations', 'Company Invitations'],
        ['agents', 'Company Agents'],
        ['settings', 'Company Settings'],
        ['details', 'Company Details'],
        ['activity', 'Activity'],
        ['insights', 'Insights'],
        ['deliveries', 'Delivery log'],
      ] as const;
      for (const [path, heading] of pages) {
        await page.goto(`/company/admin/${path}`);
        await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
        await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
        await expectNoAxeViolations(page, `${colorScheme} company admin ${path}`);
      }
    });

    test(`platform admin pages pass axe (${colorScheme})`, async ({ page }) => {
      const account = newAccount('axe-super');
      await registerViaApi(page, account);
      await promoteToSuperadmin(account.email);
      const pages = [
        ['settings', 'Platform Settings'],
        ['colors', 'Color Settings'],
        ['users', 'User Management'],
        ['companies', 'Company Management'],
        ['agents', 'Agents'],
        ['security', 'Security'],
      ] as const;
      for (const [path, heading] of pages) {
        await page.goto(`/admin/${path}`);
        await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
        await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
        await expectNoAxeViolations(page, `${colorScheme} platform admin ${path}`);
      }
    });
  });
}
