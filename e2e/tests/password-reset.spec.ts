import { expect, test } from '@playwright/test';
import { linkFrom, waitForMail } from '../fixtures/mailbox';
import { expectToast, newAccount, register, signIn, signOut } from '../fixtures/ui';

test('forgot password: the emailed link sets a new password, once', async ({ page }) => {
  const account = newAccount('grace', { fullName: 'Grace Hopper' });
  const newPassword = 'Reset-by-email-2024';
  await register(page, account);
  await signOut(page);

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // The form may still be settling (lazy route, appearance): the value must be there before sending.
  const email = page.getByLabel('Email', { exact: true });
  await expect(async () => {
    await email.fill(account.email);
    await expect(email).toHaveValue(account.email, { timeout: 1_000 });
  }).toPass();
  await page.getByRole('button', { name: /send reset link/i }).click();
  await expectToast(page, 'Password reset email sent');

  const mail = await waitForMail(account.email, { matching: /reset-password/ });
  const link = linkFrom(mail, '/reset-password');
  expect(link.searchParams.get('token')).toBeTruthy();

  await page.goto(link.pathname + link.search);
  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password reset successful')).toBeVisible();

  // The link is single use.
  await page.goto(link.pathname + link.search);
  await page.getByLabel('New Password', { exact: true }).fill('Another-password-99');
  await page.getByLabel('Confirm New Password', { exact: true }).fill('Another-password-99');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('This password reset link is invalid or has expired.')).toBeVisible();

  await signIn(page, account.email, newPassword);
});

test('forgot password gives the same answer for an unknown address and sends nothing', async ({ page }) => {
  const email = `nobody.${Date.now()}@example.com`;
  await page.goto('/forgot-password');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: /send reset link/i }).click();
  await expectToast(page, 'Password reset email sent');
  await expect(waitForMail(email, { timeoutMs: 2_000 })).rejects.toThrow(/No mail/);
});
