import { expect, test } from '@playwright/test';
import { registerViaApi, inviteViaApi, acceptViaApi } from '../fixtures/api';
import { realtimeConnected } from '../fixtures/realtime';
import {
  chooseFromMenu,
  chooseFromUserMenu,
  dismissToasts,
  expectToast,
  newAccount,
  uniqueEmail,
  userMenuButton,
  chooseOption,
  tableRows,
  tableRow,
} from '../fixtures/ui';

test('a role change and a removal take effect on the member’s open page at once', async ({ browser }) => {
  const owner = newAccount('owner-roles', {
    fullName: 'Ada Lovelace',
    companyName: `Owner Co ${Date.now()}`,
  });
  const member = newAccount('member-roles', {
    fullName: 'Grace Hopper',
    companyName: `Member Co ${Date.now()}`,
  });
  const ownerContext = await browser.newContext();
  const memberContext = await browser.newContext();
  try {
    const ownerPage = await ownerContext.newPage();
    const ownerSession = await registerViaApi(ownerPage, owner);
    const memberPage = await memberContext.newPage();
    const memberSession = await registerViaApi(memberPage, member);
    await acceptViaApi(memberSession, (await inviteViaApi(ownerSession, member.email, 'user')).link);

    // The member works in the company that invited them; as a plain user, no Company Admin.
    const memberConnected = realtimeConnected(memberPage);
    await memberPage.goto('/chat');
    await memberConnected;
    await chooseFromUserMenu(memberPage, owner.companyName);
    await expect(memberPage.getByTestId('header-company-name')).toHaveText(owner.companyName);
    await userMenuButton(memberPage).click();
    await expect(memberPage.getByRole('menuitem', { name: 'Company Admin' })).toHaveCount(0);
    await memberPage.keyboard.press('Escape');

    // A plain member who opens the address is sent back to the chat.
    await memberPage.goto('/company/admin/users');
    await expectToast(memberPage, 'Access denied');
    await expect(memberPage).toHaveURL(/\/chat$/);
    await dismissToasts(memberPage);

    const ownerConnected = realtimeConnected(ownerPage);
    await ownerPage.goto('/company/admin/users');
    await ownerConnected;
    const memberRow = tableRow(ownerPage, member.email);
    await expect(memberRow).toContainText('Grace Hopper');

    // View Profile.
    await chooseFromMenu(
      ownerPage,
      memberRow.getByRole('button', { name: 'Actions for Grace Hopper' }),
      'View Profile',
    );
    const drawer = ownerPage.getByRole('dialog', { name: 'Grace Hopper' });
    await expect(drawer.getByText(member.email)).toBeVisible();
    await drawer.getByRole('button', { name: 'Close' }).click();

    // Promote: the member's menu shows Company Admin at once.
    await chooseFromMenu(
      ownerPage,
      memberRow.getByRole('button', { name: 'Actions for Grace Hopper' }),
      'Change Role',
    );
    const roleDialog = ownerPage.getByRole('dialog', { name: 'Change Role' });
    await roleDialog.getByLabel('Role').click();
    await chooseOption(ownerPage, 'Admin');
    await roleDialog.getByRole('button', { name: 'Save Role' }).click();
    await expectToast(ownerPage, 'Role updated');
    await expect(memberRow).toContainText('Admin');

    await chooseFromUserMenu(memberPage, 'Company Admin');
    await expect(memberPage).toHaveURL(/\/company\/admin\/users$/);
    await expect(memberPage.getByRole('heading', { name: 'Company Users' })).toBeVisible();

    // Demote: the member's open admin page sends them back to the chat.
    await dismissToasts(ownerPage);
    await chooseFromMenu(
      ownerPage,
      memberRow.getByRole('button', { name: 'Actions for Grace Hopper' }),
      'Change Role',
    );
    await roleDialog.getByLabel('Role').click();
    await chooseOption(ownerPage, 'User');
    await roleDialog.getByRole('button', { name: 'Save Role' }).click();
    await expect(memberRow).toContainText('User');
    await expect(memberPage).toHaveURL(/\/chat$/);
    await expectToast(memberPage, 'Access denied');

    // Remove: the member loses the company at once and lands in their own.
    await dismissToasts(ownerPage);
    await chooseFromMenu(
      ownerPage,
      memberRow.getByRole('button', { name: 'Actions for Grace Hopper' }),
      'Remove',
    );
    const confirm = ownerPage.getByRole('dialog').filter({ hasText: 'Remove member' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expectToast(ownerPage, 'Member removed');
    await expect(memberRow).toHaveCount(0);

    await expectToast(
      memberPage,
      'Removed from company',
      `You are no longer a member of ${owner.companyName}. You are now viewing ${member.companyName}.`,
    );
    await expect(memberPage.getByTestId('header-company-name')).toHaveText(member.companyName);
    await userMenuButton(memberPage).click();
    await expect(memberPage.getByRole('menuitem', { name: owner.companyName })).toHaveCount(0);
  } finally {
    await ownerContext.close();
    await memberContext.close();
  }
});

test('the data table filters, sorts and pages (Company Invitations)', async ({ page }) => {
  const owner = newAccount('owner-table');
  const session = await registerViaApi(page, owner);
  const emails = Array.from({ length: 12 }, (_, i) => uniqueEmail(`t${String(i).padStart(2, '0')}`));
  for (const email of emails) await inviteViaApi(session, email, 'user');
  const sorted = [...emails].sort((a, b) => a.localeCompare(b));

  await page.goto('/company/admin/invitations');
  await expect(page.getByRole('heading', { name: 'Company Invitations' })).toBeVisible();
  await expect(tableRows(page)).toHaveCount(10);
  const previous = page.getByRole('button', { name: 'Previous' });
  const next = page.getByRole('button', { name: 'Next' });
  await expect(previous).toBeDisabled();
  await next.click();
  await expect(tableRows(page)).toHaveCount(2);
  await expect(next).toBeDisabled();
  await previous.click();
  await expect(tableRows(page)).toHaveCount(10);

  // Sorting by the invitee, ascending then descending, over both pages.
  const header = page.locator('th').filter({ hasText: 'Invitee' });
  await header.click();
  await expect(tableRows(page).first()).toContainText(sorted[0]);
  await header.click();
  await expect(tableRows(page).first()).toContainText(sorted[sorted.length - 1]);

  // The filter box searches the status column.
  const filter = page.getByPlaceholder('Filter by Status...');
  await filter.fill('accepted');
  await expect(page.getByText('No results.')).toBeVisible();
  await filter.fill('pend');
  await expect(tableRows(page)).toHaveCount(10);

  // Delete one (the first row, sorted descending): the table follows.
  await filter.fill('');
  const last = sorted[sorted.length - 1];
  const target = tableRow(page, last);
  await chooseFromMenu(page, target.getByRole('button', { name: `Actions for ${last}` }), 'Delete');
  await page
    .getByRole('dialog')
    .filter({ hasText: 'Delete invitation' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expectToast(page, 'Invitation deleted');
  await expect(target).toHaveCount(0);
  await next.click();
  await expect(tableRows(page)).toHaveCount(1);

  // Columns resize from the keyboard.
  const handle = page.getByRole('separator', { name: 'Resize Invitee' });
  const before = Number(await handle.getAttribute('aria-valuenow'));
  await handle.focus();
  await page.keyboard.press('ArrowRight');
  await expect(handle).toHaveAttribute('aria-valuenow', String(before + 10));
});

test('agents, settings and details of the company', async ({ browser }) => {
  const owner = newAccount('owner-agents', { companyName: `Agents Co ${Date.now()}` });
  const member = newAccount('member-rename', { companyName: `Own Co ${Date.now()}` });
  const ownerContext = await browser.newContext();
  const memberContext = await browser.newContext();
  try {
    const page = await ownerContext.newPage();
    const session = await registerViaApi(page, owner);
    const memberPage = await memberContext.newPage();
    const memberSession = await registerViaApi(memberPage, member);
    await acceptViaApi(memberSession, (await inviteViaApi(session, member.email, 'user')).link);
    const memberConnected = realtimeConnected(memberPage);
    await memberPage.goto('/chat');
    await memberConnected;
    await chooseFromUserMenu(memberPage, owner.companyName);
    await expect(memberPage.getByTestId('header-company-name')).toHaveText(owner.companyName);

    await page.goto('/company/admin/agents');
    await expect(page.getByRole('heading', { name: 'Company Agents' })).toBeVisible();
    await page.getByRole('button', { name: 'Create Agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Agent' });
    await dialog.getByLabel('Name').fill('Researcher');
    await dialog.getByRole('button', { name: 'Create Agent' }).click();
    await expect(dialog.getByText('Please enter a description')).toBeVisible();
    await dialog.getByLabel('Description').fill('Finds papers');
    await dialog.getByRole('button', { name: 'Create Agent' }).click();
    await expectToast(page, 'Agent created');
    const agentRow = tableRow(page, 'Researcher');
    await expect(agentRow).toContainText('Finds papers');
    await expect(agentRow).toContainText(session.companyId);

    // Deactivate; the is_active filter shows it among the inactive ones only.
    await agentRow.getByRole('switch', { name: 'Deactivate Researcher' }).click();
    await expectToast(page, 'Agent updated');
    await page.getByLabel('Filter by is_active').click();
    await chooseOption(page, 'Active');
    await expect(agentRow).toHaveCount(0);
    await page.getByLabel('Filter by is_active').click();
    await chooseOption(page, 'Inactive');
    await expect(agentRow).toHaveCount(1);

    // Rename: every member's screen follows.
    const newName = `Renamed ${Date.now()}`;
    await page.getByRole('navigation', { name: 'Company Admin' }).getByText('Settings').click();
    await page.getByLabel('Company Name').fill(newName);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Company updated');
    await expect(page.getByTestId('admin-company-name')).toHaveText(newName);
    await expect(memberPage.getByTestId('header-company-name')).toHaveText(newName);

    await page.getByRole('navigation', { name: 'Company Admin' }).getByText('Company Details').click();
    await expect(page.getByRole('heading', { name: 'Company Details' })).toBeVisible();
    const details = page.locator('.ant-descriptions');
    await expect(details).toContainText(newName);
    await expect(details).toContainText(owner.fullName);
    await expect(details.locator('tr').filter({ hasText: 'Members' })).toContainText('2');

    // Back to App.
    await page.getByRole('navigation', { name: 'Company Admin' }).getByText('Back to App').click();
    await expect(page).toHaveURL(/\/chat$/);
  } finally {
    await ownerContext.close();
    await memberContext.close();
  }
});
