import { expect, test, type Page } from '@playwright/test';
import { apiHeaders, registerViaApi } from '../fixtures/api';
import { linkFrom, waitForMail } from '../fixtures/mailbox';
import { expectToast, newAccount, PASSWORD, register, signOut, uniqueEmail } from '../fixtures/ui';

/** Clicks the Google button and approves on the fake Google consent page as `email`. */
async function signInWithGoogle(page: Page, email: string, name: string, { verified = true } = {}) {
  await page.goto('/');
  await page.getByRole('button', { name: /google/i }).click();
  await expect(page.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Email verified').setChecked(verified);
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('Google sign-in creates an account and signs it in', async ({ page }) => {
  const email = uniqueEmail('alan.google');
  await signInWithGoogle(page, email, 'Alan Turing');
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByTestId('header-user-name')).toHaveText('Alan Turing');

  // Signing in again with the same Google account lands in the same account.
  await signOut(page);
  await signInWithGoogle(page, email, 'Alan Turing');
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByTestId('header-user-name')).toHaveText('Alan Turing');
});

test('Google links to an existing password account only once its email is verified', async ({ page }) => {
  const account = newAccount('joan', { fullName: 'Joan Clarke' });
  await register(page, account);
  await signOut(page);

  // Anyone could have registered this address with a password: Google is refused until it is proved.
  await signInWithGoogle(page, account.email, 'Joan Google');
  await expect(page).toHaveURL(/\/\?error=google_account_unverified$/);
  await expectToast(page, 'Google login failed');

  const mail = await waitForMail(account.email, { matching: /verify-email/ });
  const link = linkFrom(mail, '/verify-email');
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('Email verified')).toBeVisible();

  await signInWithGoogle(page, account.email, 'Joan Google');
  await expect(page).toHaveURL(/\/chat$/);
  // Same account: the name and company come from the registration, not from Google.
  await expect(page.getByTestId('header-user-name')).toHaveText('Joan Clarke');
  await expect(page.getByTestId('header-company-name')).toHaveText(account.companyName);
});

test('cancelling on Google returns to sign-in with "Google login failed"', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: /google/i }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/\?error=google_login_failed$/);
  await expectToast(page, 'Google login failed');
});

test('an unverified Google email is not linked to the existing account', async ({ page }) => {
  const account = newAccount('hedy', { fullName: 'Hedy Lamarr' });
  await register(page, account);
  await signOut(page);

  await signInWithGoogle(page, account.email, 'Someone Else', { verified: false });
  await expect(page).toHaveURL(/\/\?error=google_login_failed$/);
  await expectToast(page, 'Google login failed');
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});

test("an invitation link a manager passed on gives no way into the address owner's account", async ({
  browser,
}) => {
  // The attacker owns a company (every user does), invites the victim's address and, in another
  // browser, signs up through the link the invitation's answer shows them, with a password of their own.
  const victimEmail = uniqueEmail('ceo.victim');
  const attackerPassword = 'attacker-chosen-password-1';
  const ownerContext = await browser.newContext();
  const attackerContext = await browser.newContext();
  const victimContext = await browser.newContext();
  try {
    const attackerSession = await registerViaApi(
      await ownerContext.newPage(),
      newAccount('attacker', { companyName: `attacker ${Date.now()}` }),
    );
    const res = await attackerSession.request.post('/api/company/invitations', {
      headers: apiHeaders(attackerSession),
      data: { email: victimEmail, role: 'user' },
    });
    expect(res.status(), await res.text()).toBe(201);
    const copied = new URL(((await res.json()) as { link: string }).link);
    const attacker = await attackerContext.newPage();
    await attacker.goto(copied.pathname + copied.search);
    await expect(attacker.getByRole('heading', { name: 'Company Invitation' })).toBeVisible();
    await attacker.getByLabel('First Name').fill('Fake');
    await attacker.getByLabel('Last Name').fill('Ceo');
    await attacker.getByLabel('Password').fill(attackerPassword);
    await attacker.getByRole('button', { name: 'Create account and join' }).click();
    await expect(attacker).toHaveURL(/\/chat$/);

    // The real owner signs in with Google: refused (the account's password may be anyone's), and told a
    // mail is on its way; the mail sets the password, which proves the address and ends every session.
    const victim = await victimContext.newPage();
    await signInWithGoogle(victim, victimEmail, 'Real Ceo');
    await expect(victim).toHaveURL(/\/\?error=google_account_unverified$/);
    await expectToast(victim, 'Google login failed');
    await expect(victim.getByText(/We have emailed you a link to choose its password/)).toBeVisible();
    const link = linkFrom(await waitForMail(victimEmail, { matching: /reset-password/ }), '/reset-password');
    await victim.goto(link.pathname + link.search);
    await victim.getByLabel('New Password', { exact: true }).fill(PASSWORD);
    await victim.getByLabel('Confirm New Password', { exact: true }).fill(PASSWORD);
    await victim.getByRole('button', { name: 'Reset Password' }).click();
    await expect(victim.getByText('Password reset successful')).toBeVisible();

    // The attacker's open tab is signed out, and their password no longer opens the account.
    await expect(attacker.getByRole('heading', { name: 'Welcome back' })).toBeVisible({ timeout: 15_000 });
    const login = await attacker.request.post('/api/auth/login', {
      data: { email: victimEmail, password: attackerPassword },
    });
    expect(login.status()).toBe(401);

    // Google now signs the owner into that account.
    await signInWithGoogle(victim, victimEmail, 'Real Ceo');
    await expect(victim).toHaveURL(/\/chat$/);
  } finally {
    await ownerContext.close();
    await attackerContext.close();
    await victimContext.close();
  }
});
