import { expect, test, type Page } from '@playwright/test';
import { linkFrom, waitForMail } from '../fixtures/mailbox';
import { expectToast, newAccount, register, signOut, uniqueEmail } from '../fixtures/ui';

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
