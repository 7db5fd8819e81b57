import { expect, test } from '@playwright/test';
import { linkFrom, waitForMail } from '../fixtures/mailbox';
import { expectToast, newAccount, signIn } from '../fixtures/ui';

// The installation setting changes sign-up for everyone: run this file on its own, against an app
// started with it (REQUIRE_EMAIL_VERIFICATION=true npx playwright test ... email-verification-required).
test.skip(
  process.env.REQUIRE_EMAIL_VERIFICATION !== 'true',
  'needs the app started with REQUIRE_EMAIL_VERIFICATION=true',
);

test('with verification required: check your email, sign-in refused until the link, resend, then in', async ({
  page,
}) => {
  const account = newAccount('emmy', { fullName: 'Emmy Noether' });
  await page.goto('/register');
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Full Name', { exact: true }).fill(account.fullName);
  await page.getByLabel('Company Name', { exact: true }).fill(account.companyName);
  await page.getByRole('button', { name: /create account/i }).click();
  await expectToast(page, 'Registration successful', 'Please check your email to confirm your account.');
  await expect(page.getByText('Check your email', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Back to sign in' }).click();

  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Please verify your email first', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await expectToast(page, 'Verification email sent');

  const mail = await waitForMail(account.email, { matching: /verify-email/ });
  const link = linkFrom(mail, '/verify-email');
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('Email verified')).toBeVisible();
  await page.getByRole('button', { name: 'Continue to sign in' }).click();

  await signIn(page, account.email, account.password);
});
