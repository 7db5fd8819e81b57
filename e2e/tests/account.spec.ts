import { expect, test } from '@playwright/test';
import {
  chooseFromUserMenu,
  expectToast,
  newAccount,
  register,
  signIn,
  signOut,
  userMenuButton,
} from '../fixtures/ui';

test('register, sign out and in, edit the profile, change the password, sign in with the new one', async ({
  page,
}) => {
  const account = newAccount('ada', { fullName: 'Ada Lovelace' });
  const newPassword = 'A-brand-new-passphrase-42';

  await register(page, account);
  await expectToast(page, 'Registration successful');
  await expect(page.getByTestId('header-user-name')).toHaveText('Ada Lovelace');
  await expect(page.getByTestId('header-company-name')).toHaveText(account.companyName);
  // The avatar fallback is the first letter of the name.
  await expect(userMenuButton(page)).toContainText('A');

  await signOut(page);
  await signIn(page, account.email, account.password);

  // Profile tab: name and bio are saved on the server (they survive a reload).
  await chooseFromUserMenu(page, 'Profile');
  const dialog = page.getByRole('dialog', { name: 'Profile Settings' });
  await expect(dialog.getByLabel('Email', { exact: true })).toHaveValue(account.email);
  await dialog.getByLabel('Name', { exact: true }).fill('Ada King');
  await dialog.getByLabel('Bio', { exact: true }).fill('Wrote the first published program.\nLikes engines.');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Profile updated');
  await expect(page.getByTestId('header-user-name')).toHaveText('Ada King');

  await page.reload();
  await expect(page.getByTestId('header-user-name')).toHaveText('Ada King');
  await chooseFromUserMenu(page, 'Profile');
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue('Ada King');
  await expect(dialog.getByLabel('Bio', { exact: true })).toHaveValue(
    'Wrote the first published program.\nLikes engines.',
  );

  // Password tab: a wrong current password is refused, then the change goes through.
  await dialog.getByRole('tab', { name: 'Password' }).click();
  await dialog.getByLabel('Current Password', { exact: true }).fill('not-my-password');
  await dialog.getByLabel('New Password', { exact: true }).fill(newPassword);
  await dialog.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
  await dialog.getByRole('button', { name: 'Update Password' }).click();
  await expectToast(page, 'Error updating password', 'Current password is incorrect');

  await dialog.getByLabel('Current Password', { exact: true }).fill(account.password);
  await dialog.getByRole('button', { name: 'Update Password' }).click();
  await expectToast(page, 'Password updated');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await signOut(page);

  // The old password no longer works...
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expectToast(page, 'Login failed');
  await expect(page).toHaveURL(/\/$/);

  // ...the new one does, and the profile edits are still there.
  await signIn(page, account.email, newPassword);
  await expect(page.getByTestId('header-user-name')).toHaveText('Ada King');
});

test('registration asks for every field', async ({ page }) => {
  await page.goto('/register');
  await page.getByLabel('Email', { exact: true }).fill('someone@example.com');
  await page.getByRole('button', { name: /create account/i }).click();
  await expect(page.getByText('Please fill in all required fields')).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test('signing in with an unknown account fails without saying whether it exists', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Email', { exact: true }).fill('nobody-here@example.com');
  await page.getByLabel('Password', { exact: true }).fill('whatever-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expectToast(page, 'Login failed');
  await expect(page).toHaveURL(/\/$/);
});
