import { expect, test } from '@playwright/test';
import { linkFrom, waitForMail } from '../fixtures/mailbox';
import {
  chooseFromUserMenu,
  expectToast,
  newAccount,
  register,
  signIn,
  signOut,
  uniqueEmail,
  userMenuButton,
} from '../fixtures/ui';

test('the link mailed at registration verifies the address, once', async ({ page }) => {
  const account = newAccount('mary', { fullName: 'Mary Somerville' });
  await register(page, account);

  const mail = await waitForMail(account.email, { matching: /verify-email/ });
  const link = linkFrom(mail, '/verify-email');
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('Email verified')).toBeVisible();
  await page.getByRole('button', { name: 'Continue to chat' }).click();
  await expect(page).toHaveURL(/\/chat$/);

  // The link is single use.
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('This verification link is invalid or has expired.')).toBeVisible();
  await page.getByRole('button', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/chat$/);
});

test('a new email takes effect only when the link sent to it is followed', async ({ page }) => {
  const account = newAccount('caroline', { fullName: 'Caroline Herschel' });
  const newEmail = uniqueEmail('caroline.new');
  await register(page, account);

  await chooseFromUserMenu(page, 'Profile');
  const dialog = page.getByRole('dialog', { name: 'Profile Settings' });
  await dialog.getByLabel('Email', { exact: true }).fill(newEmail);
  await dialog.getByLabel('Current Password', { exact: true }).fill(account.password);
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Profile updated', `We sent a confirmation link to ${newEmail}`);
  // Still the old address, with the new one waiting under the field.
  await expect(dialog.getByLabel('Email', { exact: true })).toHaveValue(account.email);
  await expect(dialog.getByText(`Waiting for confirmation: ${newEmail}`)).toBeVisible();

  const mail = await waitForMail(newEmail, { matching: /confirm-email/ });
  const link = linkFrom(mail, '/confirm-email');
  await page.goto(link.pathname + link.search);
  await expect(page.getByText('Email updated')).toBeVisible();
  await expect(page.getByText(`Your account's email is now ${newEmail}.`)).toBeVisible();
  await page.getByRole('button', { name: 'Continue to chat' }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await userMenuButton(page).click();
  await expect(page.getByText(newEmail)).toBeVisible();
  await page.keyboard.press('Escape');

  await signOut(page);
  await signIn(page, newEmail, account.password);
});

test('a confirmation link that is not one says so', async ({ page }) => {
  await page.goto('/confirm-email?token=not-a-real-token');
  await expect(page.getByText('This confirmation link is invalid or has expired.')).toBeVisible();
  await page.getByRole('button', { name: 'Return to Home' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});
