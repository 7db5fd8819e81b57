import { expect, test, type Browser, type Page } from '@playwright/test';
import { registerViaApi, inviteAndJoin } from '../fixtures/api';
import { linkFrom, waitForMail } from '../fixtures/mailbox';
import { promoteToSuperadmin } from '../fixtures/superadmin';
import {
  chooseFromMenu,
  chooseFromUserMenu,
  dismissToasts,
  expectToast,
  newAccount,
  signIn,
  uniqueEmail,
  type NewAccount,
  tableRows,
} from '../fixtures/ui';

const LAST_SUPERADMIN = 'The platform needs at least one active super admin.';

/** A signed-in superadmin on a page of its own. */
async function superadminPage(browser: Browser, prefix: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const account = newAccount(prefix);
  const session = await registerViaApi(page, account);
  await promoteToSuperadmin(account.email);
  return { context, page, account, session };
}

/** Shows only the rows of User Management whose name or email matches (other tests share the database). */
async function findUser(page: Page, email: string) {
  await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
  const row = tableRows(page).filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(tableRows(page)).toHaveCount(1);
  return row;
}

test('a superadmin invites a user, who chooses a password and signs in; promote and demote', async ({
  browser,
}) => {
  const admin = await superadminPage(browser, 'pu-admin');
  const inviteeContext = await browser.newContext();
  try {
    const { page } = admin;
    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Refresh users' })).toBeVisible();

    const email = uniqueEmail('pu-invitee');
    await page.getByRole('button', { name: 'Invite User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite User' });
    const send = dialog.getByRole('button', { name: 'Send Invitation' });
    await expect(send).toBeDisabled();
    await dialog.getByLabel('Name').fill('Ivy Invitee');
    await expect(send).toBeDisabled();
    await dialog.getByLabel('Email').fill(email);
    await send.click();
    await expectToast(page, 'User invited');

    const row = await findUser(page, email);
    await expect(row).toContainText('Ivy Invitee');
    await expect(row).toContainText('User');
    await expect(row).toContainText('Never');

    // The invitee follows the mailed link, chooses a password and signs in.
    const mail = await waitForMail(email, { matching: /invited to Switchboard/ });
    const link = linkFrom(mail, '/reset-password');
    const invitee = await inviteeContext.newPage();
    await invitee.goto(link.pathname + link.search);
    await invitee.getByLabel('New Password', { exact: true }).fill('Ivy-own-password-1');
    await invitee.getByLabel('Confirm New Password', { exact: true }).fill('Ivy-own-password-1');
    await invitee.getByRole('button', { name: 'Reset Password' }).click();
    await expect(invitee.getByText('Password reset successful')).toBeVisible();
    await signIn(invitee, email, 'Ivy-own-password-1');

    // Last Login follows (refresh), then promote and demote.
    await page.getByRole('button', { name: 'Refresh users' }).click();
    await expect(row).not.toContainText('Never');
    await expect(row).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d{2} (AM|PM)/);

    await chooseFromMenu(
      page,
      row.getByRole('button', { name: 'Actions for Ivy Invitee' }),
      'Make Super Admin',
    );
    await page
      .getByRole('dialog', { name: 'Make Super Admin' })
      .getByRole('button', { name: 'Make Super Admin' })
      .click();
    await expectToast(page, 'Promoted to Super Admin');
    await expect(row).toContainText('Super Admin');

    await dismissToasts(page);
    await chooseFromMenu(
      page,
      row.getByRole('button', { name: 'Actions for Ivy Invitee' }),
      'Remove Super Admin',
    );
    await page
      .getByRole('dialog', { name: 'Remove Super Admin' })
      .getByRole('button', { name: 'Remove Super Admin' })
      .click();
    await expectToast(page, 'Super Admin role removed');
    await expect(row).not.toContainText('Super Admin');

    // A password reset from the table reaches the invitee's mailbox.
    await dismissToasts(page);
    await chooseFromMenu(
      page,
      row.getByRole('button', { name: 'Actions for Ivy Invitee' }),
      'Send password reset',
    );
    await expectToast(page, 'Password reset email sent');
    await waitForMail(email, { matching: /Reset your Switchboard password/ });
  } finally {
    await admin.context.close();
    await inviteeContext.close();
  }
});

test("a deleted company's member's open page moves to another company of theirs", async ({ browser }) => {
  const admin = await superadminPage(browser, 'pc-admin');
  const ownerContext = await browser.newContext();
  const memberContext = await browser.newContext();
  try {
    const doomed: NewAccount = newAccount('pc-owner', {
      companyName: `Doomed Co ${Date.now().toString(36)}`,
    });
    const member: NewAccount = newAccount('pc-member', { fullName: 'Grace Hopper' });
    const ownerSession = await registerViaApi(await ownerContext.newPage(), doomed);
    const memberPage = await memberContext.newPage();
    const memberSession = await registerViaApi(memberPage, member);
    await inviteAndJoin(ownerSession, memberSession, member.email);

    // The member looks at the doomed company.
    await memberPage.goto('/chat');
    await chooseFromUserMenu(memberPage, doomed.companyName);
    await expect(memberPage.getByTestId('header-company-name')).toHaveText(doomed.companyName);

    const { page } = admin;
    await page.goto('/admin/companies');
    await expect(page.getByRole('heading', { name: 'Company Management' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search companies' }).fill(doomed.companyName);
    const row = tableRows(page).filter({ hasText: doomed.companyName });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('2 users');

    await chooseFromMenu(
      page,
      row.getByRole('button', { name: `Actions for ${doomed.companyName}` }),
      'Manage Users',
    );
    const users = page.getByRole('dialog', { name: `Users of ${doomed.companyName}` });
    await expect(users.getByText(member.email)).toBeVisible();
    await expect(users.locator('tr').filter({ hasText: doomed.email })).toContainText('Owner');
    await users.getByRole('button', { name: 'Close' }).click();

    await chooseFromMenu(
      page,
      row.getByRole('button', { name: `Actions for ${doomed.companyName}` }),
      'Delete',
    );
    const confirm = page.getByRole('dialog', { name: `Delete ${doomed.companyName}?` });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Company deleted');
    await expect(row).toHaveCount(0);

    // Live, without a reload: the member is moved to their own company and told why.
    await expectToast(
      memberPage,
      'Company deleted',
      `${doomed.companyName} was deleted by a platform administrator. You are now viewing ${member.companyName}.`,
    );
    await expect(memberPage.getByTestId('header-company-name')).toHaveText(member.companyName);
    await memberPage.getByRole('button', { name: 'User menu' }).click();
    await expect(memberPage.getByRole('menuitem', { name: doomed.companyName })).toHaveCount(0);
  } finally {
    await admin.context.close();
    await ownerContext.close();
    await memberContext.close();
  }
});

test("a disabled user's open page is signed out and cannot sign in until enabled", async ({ browser }) => {
  const admin = await superadminPage(browser, 'pd-admin');
  const victimContext = await browser.newContext();
  try {
    const victim = newAccount('pd-victim', { fullName: 'Victor Vance' });
    const victimPage = await victimContext.newPage();
    await registerViaApi(victimPage, victim);
    await victimPage.goto('/chat');
    await expect(victimPage.getByRole('button', { name: 'User menu' })).toBeVisible();

    const { page } = admin;
    await page.goto('/admin/users');
    const row = await findUser(page, victim.email);
    await chooseFromMenu(
      page,
      row.getByRole('button', { name: 'Actions for Victor Vance' }),
      'Disable account',
    );
    await page
      .getByRole('dialog', { name: 'Disable account' })
      .getByRole('button', { name: 'Disable' })
      .click();
    await expectToast(page, 'Account disabled');
    await expect(row).toContainText('Disabled');

    // The open page is signed out at once.
    await expectToast(victimPage, 'Logged out');
    await expect(victimPage.getByRole('heading', { name: 'Welcome back' })).toBeVisible();

    // Signing in is refused with a readable reason.
    await victimPage.getByLabel('Email', { exact: true }).fill(victim.email);
    await victimPage.getByLabel('Password', { exact: true }).fill(victim.password);
    await victimPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectToast(victimPage, 'Login failed', 'This account has been disabled.');
    await expect(victimPage).toHaveURL(/\/$/);

    await dismissToasts(page);
    await chooseFromMenu(
      page,
      row.getByRole('button', { name: 'Actions for Victor Vance' }),
      'Enable account',
    );
    await page
      .getByRole('dialog', { name: 'Enable account' })
      .getByRole('button', { name: 'Enable' })
      .click();
    await expectToast(page, 'Account enabled');
    await expect(row).not.toContainText('Disabled');
    await signIn(victimPage, victim.email, victim.password);
  } finally {
    await admin.context.close();
    await victimContext.close();
  }
});

test('the last super admin cannot remove their own role', async ({ browser }) => {
  const admin = await superadminPage(browser, 'pl-admin');
  try {
    // Step every other active superadmin down (tests share the database; each promotes its own).
    const headers = { authorization: `Bearer ${admin.session.accessToken}` };
    let cursor: string | null = null;
    const others: string[] = [];
    do {
      const res = await admin.page.request.get('/api/admin/users', {
        headers,
        params: { limit: '100', ...(cursor ? { cursor } : {}) },
      });
      expect(res.status(), await res.text()).toBe(200);
      const body = (await res.json()) as {
        users: Array<{ id: string; isSuperadmin: boolean; disabled: boolean }>;
        nextCursor: string | null;
      };
      others.push(
        ...body.users
          .filter((u) => u.isSuperadmin && !u.disabled && u.id !== admin.session.userId)
          .map((u) => u.id),
      );
      cursor = body.nextCursor;
    } while (cursor);
    for (const id of others) {
      const res = await admin.page.request.patch(`/api/admin/users/${id}`, {
        headers,
        data: { isSuperadmin: false },
      });
      expect(res.status(), await res.text()).toBe(200);
    }

    const { page } = admin;
    await page.goto('/admin/users');
    const row = await findUser(page, admin.account.email);
    await expect(row).toContainText('Super Admin');
    await chooseFromMenu(
      page,
      row.getByRole('button', { name: 'Actions for Ada Lovelace' }),
      'Remove Super Admin',
    );
    await page
      .getByRole('dialog', { name: 'Remove Super Admin' })
      .getByRole('button', { name: 'Remove Super Admin' })
      .click();
    await expectToast(page, 'Failed to demote user', LAST_SUPERADMIN);
    await page.getByRole('button', { name: 'Refresh users' }).click();
    await expect(row).toContainText('Super Admin');
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  } finally {
    await admin.context.close();
  }
});
