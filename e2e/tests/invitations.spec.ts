import { expect, test } from '@playwright/test';
import { registerViaApi, inviteViaApi } from '../fixtures/api';
import { linkFrom, waitForMail } from '../fixtures/mailbox';
import { realtimeConnected } from '../fixtures/realtime';
import { chooseFromUserMenu, expectToast, newAccount, PASSWORD, uniqueEmail, tableRow } from '../fixtures/ui';

test('the owner invites by email; a new person registers through the mailed link; the owner sees it live', async ({
  browser,
}) => {
  const owner = newAccount('owner-invites', { fullName: 'Ada Lovelace' });
  const inviteeEmail = uniqueEmail('grace');
  const ownerContext = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const inviteeContext = await browser.newContext();
  try {
    const invitations = await ownerContext.newPage();
    await registerViaApi(invitations, owner);

    // The owner opens Company Admin from the user menu, and its Invitations page.
    const invitationsConnected = realtimeConnected(invitations);
    await invitations.goto('/chat');
    await invitationsConnected;
    await chooseFromUserMenu(invitations, 'Company Admin');
    await expect(invitations).toHaveURL(/\/company\/admin\/users$/);
    await expect(invitations.getByTestId('admin-company-name')).toHaveText(owner.companyName);
    await invitations.getByRole('navigation', { name: 'Company Admin' }).getByText('Invitations').click();
    await expect(invitations.getByRole('heading', { name: 'Company Invitations' })).toBeVisible();
    await expect(invitations.getByText('No results.')).toBeVisible();

    // A second tab of the owner keeps the Users page open.
    const users = await ownerContext.newPage();
    const usersConnected = realtimeConnected(users);
    await users.goto('/company/admin/users');
    await usersConnected;
    await expect(users.getByRole('heading', { name: 'Company Users' })).toBeVisible();
    await expect(users.getByText('Manage users in your company')).toBeVisible();
    await expect(tableRow(users, owner.email)).toContainText('Owner');

    await invitations.getByRole('button', { name: 'New Invitation' }).click();
    const dialog = invitations.getByRole('dialog', { name: 'New Invitation' });
    await dialog.getByLabel('Email').fill(inviteeEmail);
    await expect(dialog.getByLabel('Role')).toBeVisible();
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await expectToast(invitations, 'Invitation created');
    await expect(dialog).toBeHidden();
    const row = tableRow(invitations, inviteeEmail);
    await expect(row).toContainText('pending');
    await expect(row).toContainText('Ada Lovelace');
    await expect(row).toContainText(/(30|31) days/);

    // The mail carries the link; the invitee follows it in another browser.
    const mail = await waitForMail(inviteeEmail, { matching: /invit/i });
    const link = linkFrom(mail, '/invitation');
    const invitee = await inviteeContext.newPage();
    await invitee.goto(link.pathname + link.search);
    await expect(invitee.getByRole('heading', { name: 'Company Invitation' })).toBeVisible();
    await expect(
      invitee.getByText(`Ada Lovelace has invited you to join ${owner.companyName}`),
    ).toBeVisible();
    await invitee.getByLabel('First Name').fill('Grace');
    await invitee.getByRole('button', { name: 'Create account and join' }).click();
    await expect(invitee.getByText('Please fill in all required fields')).toBeVisible();
    await invitee.getByLabel('Last Name').fill('Hopper');
    await invitee.getByLabel('Password').fill(PASSWORD);
    await invitee.getByRole('button', { name: 'Create account and join' }).click();
    await expectToast(invitee, 'Invitation accepted', `You have successfully joined ${owner.companyName}.`);
    // A plain member lands in the chat, in the company that invited them.
    await expect(invitee).toHaveURL(/\/chat$/);
    await expect(invitee.getByTestId('header-company-name')).toHaveText(owner.companyName);

    // The owner's open pages follow without a reload.
    await expect(row).toContainText('accepted');
    await expect(tableRow(users, inviteeEmail)).toContainText('Grace Hopper');
    await expect(tableRow(users, inviteeEmail)).toContainText('User');

    // An accepted invitation offers only Copy Invite Link; a second use of the link is refused.
    await row.getByRole('button', { name: `Actions for ${inviteeEmail}` }).click();
    await expect(invitations.getByRole('menuitem', { name: 'Copy Invite Link' })).toBeVisible();
    await expect(invitations.getByRole('menuitem', { name: 'Resend' })).toHaveCount(0);
    await invitations.keyboard.press('Escape');

    const again = await (await browser.newContext()).newPage();
    await again.goto(link.pathname + link.search);
    await expect(again.getByRole('heading', { name: 'Invalid Invitation' })).toBeVisible();
    await again.getByRole('button', { name: 'Return to Home' }).click();
    await expect(again.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await again.context().close();
  } finally {
    await ownerContext.close();
    await inviteeContext.close();
  }
});

test('an existing user accepts while signed in, as an admin, and lands in Company Admin', async ({
  browser,
}) => {
  const owner = newAccount('owner-existing', { companyName: `owner-existing ${Date.now()}` });
  const member = newAccount('existing', { fullName: 'Katherine Johnson' });
  const ownerContext = await browser.newContext();
  const memberContext = await browser.newContext();
  try {
    const ownerPage = await ownerContext.newPage();
    const ownerSession = await registerViaApi(ownerPage, owner);
    const memberPage = await memberContext.newPage();
    await registerViaApi(memberPage, member);

    const { link } = await inviteViaApi(ownerSession, member.email, 'admin');
    const url = new URL(link);
    await memberPage.goto(`${url.pathname}${url.search}`);
    await expectToast(
      memberPage,
      'Invitation accepted',
      `You have successfully joined ${owner.companyName}.`,
    );
    await expect(memberPage).toHaveURL(/\/company\/admin\/users$/);
    await expect(memberPage.getByTestId('admin-company-name')).toHaveText(owner.companyName);
    await expect(tableRow(memberPage, member.email)).toContainText('Admin');
  } finally {
    await ownerContext.close();
    await memberContext.close();
  }
});

test('someone with an account signs in from the invitation and comes back to accept it', async ({
  browser,
}) => {
  const owner = newAccount('owner-signin', { companyName: `owner-signin ${Date.now()}` });
  const member = newAccount('returning', { fullName: 'Dorothy Vaughan' });
  const ownerContext = await browser.newContext();
  const memberContext = await browser.newContext();
  try {
    const ownerSession = await registerViaApi(await ownerContext.newPage(), owner);
    // The member's account exists, but this browser is signed out.
    const setUp = await browser.newContext();
    await registerViaApi(await setUp.newPage(), member);
    await setUp.close();

    const { link } = await inviteViaApi(ownerSession, member.email, 'user');
    const url = new URL(link);
    const page = await memberContext.newPage();
    await page.goto(`${url.pathname}${url.search}&redirect=${encodeURIComponent('https://evil.example/')}`);
    await expect(page.getByRole('heading', { name: 'Company Invitation' })).toBeVisible();
    await page.getByRole('link', { name: 'Sign in to accept' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await page.getByLabel('Email', { exact: true }).fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectToast(page, 'Invitation accepted', `You have successfully joined ${owner.companyName}.`);
    // The outside redirect is ignored: a plain member goes to the chat.
    await expect(page).toHaveURL(/\/chat$/);
    await expect(page.getByTestId('header-company-name')).toHaveText(owner.companyName);
  } finally {
    await ownerContext.close();
    await memberContext.close();
  }
});

test('a signed-in user with another address is refused; no token says so', async ({ browser }) => {
  const owner = newAccount('owner-mismatch', { companyName: `owner-mismatch ${Date.now()}` });
  const other = newAccount('other');
  const ownerContext = await browser.newContext();
  const otherContext = await browser.newContext();
  try {
    const ownerSession = await registerViaApi(await ownerContext.newPage(), owner);
    const page = await otherContext.newPage();
    await registerViaApi(page, other);
    const { link } = await inviteViaApi(ownerSession, uniqueEmail('someone'), 'user');
    const url = new URL(link);
    await page.goto(`${url.pathname}${url.search}`);
    await expectToast(
      page,
      'Email mismatch',
      'Please sign in with the email address the invitation was sent to.',
    );
    await expect(page).not.toHaveURL(/invitation/);

    await page.goto('/invitation');
    await expectToast(page, 'Invalid invitation', 'No invitation token provided.');
    await expect(page).not.toHaveURL(/invitation/);
  } finally {
    await ownerContext.close();
    await otherContext.close();
  }
});

test("/register?token= completes the invited person's registration", async ({ browser }) => {
  const owner = newAccount('owner-register', { companyName: `owner-register ${Date.now()}` });
  const email = uniqueEmail('mary');
  const ownerContext = await browser.newContext();
  const context = await browser.newContext();
  try {
    const ownerSession = await registerViaApi(await ownerContext.newPage(), owner);
    const { link } = await inviteViaApi(ownerSession, email, 'user');
    const token = new URL(link).searchParams.get('token') ?? '';
    const page = await context.newPage();
    await page.goto(`/register?token=${encodeURIComponent(token)}`);
    await expect(page.getByRole('heading', { name: 'Complete Your Registration' })).toBeVisible();
    await expect(page.getByText(`You have been invited to join ${owner.companyName}.`)).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByLabel('Email')).toBeDisabled();
    await page.getByLabel('First Name').fill('Mary');
    await page.getByLabel('Last Name').fill('Jackson');
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await expect(page.getByText('Please enter a password')).toBeVisible();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await expectToast(page, 'Invitation accepted', `You have successfully joined ${owner.companyName}.`);
    await expect(page).toHaveURL(/\/chat$/);
  } finally {
    await ownerContext.close();
    await context.close();
  }
});
