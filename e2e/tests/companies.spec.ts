import { expect, test } from '@playwright/test';
import { chooseFromUserMenu, expectToast, newAccount, register, userMenuButton } from '../fixtures/ui';

test('create a company, then switch back and forth; the choice is remembered', async ({ page }) => {
  const account = newAccount('katherine', {
    fullName: 'Katherine Johnson',
    companyName: `NACA ${Date.now()}`,
  });
  const second = `NASA ${Date.now()}`;
  await register(page, account);
  await expect(page.getByTestId('header-company-name')).toHaveText(account.companyName);

  // The owner of the current company sees Company Admin.
  await userMenuButton(page).click();
  await expect(page.getByRole('menuitem', { name: 'Company Admin' })).toBeVisible();
  await chooseFromUserMenu(page, 'Create Company');

  const dialog = page.getByRole('dialog', { name: 'Create New Company' });
  await expect(dialog.getByPlaceholder('My Company')).toBeVisible();
  // Company name is required.
  await dialog.getByRole('button', { name: 'Create Company' }).click();
  await expect(dialog.getByText('Company name is required')).toBeVisible();

  await dialog.getByLabel('Company Name', { exact: true }).fill(second);
  await dialog.getByRole('button', { name: 'Create Company' }).click();
  await expectToast(page, 'Company created', 'You are now the owner of your new company.');
  await expect(dialog).toBeHidden();
  // A new company becomes the current one.
  await expect(page.getByTestId('header-company-name')).toHaveText(second);

  await chooseFromUserMenu(page, account.companyName);
  await expectToast(page, 'Company switched', `You are now viewing ${account.companyName}`);
  await expect(page.getByTestId('header-company-name')).toHaveText(account.companyName);

  await chooseFromUserMenu(page, second);
  await expectToast(page, 'Company switched', `You are now viewing ${second}`);
  await expect(page.getByTestId('header-company-name')).toHaveText(second);

  // The current company is remembered by this browser.
  await page.reload();
  await expect(page.getByTestId('header-company-name')).toHaveText(second);
});
