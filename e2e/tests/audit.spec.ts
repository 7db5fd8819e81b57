import { expect, test } from '@playwright/test';
import { apiHeaders, registerViaApi, type ApiSession, inviteAndJoin } from '../fixtures/api';
import { promoteToSuperadmin } from '../fixtures/superadmin';
import { newAccount, uniqueEmail, chooseOption, tableRows } from '../fixtures/ui';

/** 'Nov 22, 2026 9:05 PM' */
const TIME = /^[A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d{2} (AM|PM)$/;

test('a superadmin reads sign-ins and failed sign-ins in Security and filters them by action', async ({
  browser,
  playwright,
}) => {
  const admin = newAccount('audit-super');
  const someone = newAccount('audit-someone', { companyName: `Someone's Co ${Date.now()}` });
  const adminContext = await browser.newContext();
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const page = await adminContext.newPage();
    await registerViaApi(page, admin);
    await promoteToSuperadmin(admin.email);

    // Someone else signs up, mistypes their password once, then signs in.
    const signUp = await api.post('/api/auth/register', {
      data: {
        email: someone.email,
        password: someone.password,
        fullName: someone.fullName,
        companyName: someone.companyName,
      },
    });
    expect(signUp.status(), await signUp.text()).toBe(201);
    const wrong = await api.post('/api/auth/login', {
      data: { email: someone.email, password: 'not the password' },
    });
    expect(wrong.status()).toBe(401);
    const right = await api.post('/api/auth/login', {
      data: { email: someone.email, password: someone.password },
    });
    expect(right.status(), await right.text()).toBe(200);

    await page.goto('/admin/security');
    await expect(page.getByRole('heading', { name: 'Security' })).toBeVisible();
    await expect(page.getByText('Audit log', { exact: true })).toBeVisible();

    // This person's entries only (other tests share the database).
    await page.getByLabel('Actor').fill(someone.email);
    await page.getByLabel('Actor').press('Enter');
    const signedIn = tableRows(page).filter({ hasText: 'Signed in' });
    const failed = tableRows(page).filter({ hasText: 'Failed sign-in' });
    await expect(signedIn).toHaveCount(2); // at sign-up, then with the password
    await expect(failed).toHaveCount(1);
    await expect(failed).toContainText(someone.email);
    await expect(failed).toContainText('wrong email or password');
    await expect(signedIn.filter({ hasText: 'with password' })).toHaveCount(1);
    await expect(failed.locator('td').first()).toHaveText(TIME);
    // The address the sign-in came from.
    await expect(failed.locator('td').last()).toHaveText(/^(::ffff:)?127\.0\.0\.1$|^::1$/);

    // Their company, found by name: only what happened to it (sign-ins belong to no company).
    await page.getByLabel('Company').fill(someone.companyName);
    await chooseOption(page, someone.companyName);
    await expect(tableRows(page)).toHaveCount(1);
    await expect(tableRows(page).first()).toContainText('Company created');
    await expect(tableRows(page).first()).toContainText('at sign-up');
    const companyFilter = page.locator('.ant-select').filter({ has: page.getByLabel('Company') });
    await companyFilter.hover();
    await companyFilter.locator('.ant-select-clear').click();
    // Back to all of their entries: the company's creation, two sign-ins, the failed one.
    await expect(tableRows(page)).toHaveCount(4);

    await page.getByLabel('Action').click();
    await chooseOption(page, 'Failed sign-in');
    await expect(tableRows(page)).toHaveCount(1);
    await expect(tableRows(page).first()).toContainText('Failed sign-in');
    await expect(tableRows(page).first()).toContainText(someone.email);
  } finally {
    await adminContext.close();
    await api.dispose();
  }
});

test("an owner sees their company's role change in Activity, and nothing of another company", async ({
  browser,
  playwright,
}) => {
  const owner = newAccount('audit-owner', { companyName: `Audited Co ${Date.now()}` });
  const member = newAccount('audit-member');
  const stranger = newAccount('audit-stranger');
  const ownerContext = await browser.newContext();
  const memberApi = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const strangerApi = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const page = await ownerContext.newPage();
    const ownerSession = await registerViaApi(page, owner);
    const register = async (request: typeof memberApi, account: typeof member): Promise<ApiSession> => {
      const res = await request.post('/api/auth/register', {
        data: {
          email: account.email,
          password: account.password,
          fullName: account.fullName,
          companyName: account.companyName,
        },
      });
      expect(res.status(), await res.text()).toBe(201);
      const body = (await res.json()) as { accessToken: string; user: { id: string } };
      const companies = await request.get('/api/companies', {
        headers: { authorization: `Bearer ${body.accessToken}` },
      });
      const [company] = (await companies.json()) as Array<{ id: string }>;
      return { request, accessToken: body.accessToken, companyId: company.id, userId: body.user.id };
    };
    const memberSession = await register(memberApi, member);
    const strangerSession = await register(strangerApi, stranger);

    await inviteAndJoin(ownerSession, memberSession, member.email);
    const promoted = await ownerSession.request.patch(`/api/company/members/${memberSession.userId}`, {
      headers: apiHeaders(ownerSession),
      data: { role: 'admin' },
    });
    expect(promoted.status(), await promoted.text()).toBe(200);
    // Another company's history, which this owner must not see.
    const elsewhere = uniqueEmail('audit-elsewhere');
    const foreign = await strangerSession.request.post('/api/company/invitations', {
      headers: apiHeaders(strangerSession),
      data: { email: elsewhere, role: 'admin' },
    });
    expect(foreign.status(), await foreign.text()).toBe(201);

    await page.goto('/company/admin/activity');
    await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible();
    const roleChange = tableRows(page).filter({ hasText: 'Role changed' });
    await expect(roleChange).toHaveCount(1);
    await expect(roleChange).toContainText(owner.email);
    await expect(roleChange).toContainText(member.email);
    await expect(roleChange).toContainText('User → Admin');
    await expect(roleChange.locator('td').first()).toHaveText(TIME);
    await expect(tableRows(page).filter({ hasText: 'Invitation accepted' })).toHaveCount(1);
    await expect(tableRows(page).filter({ hasText: 'Company created' })).toHaveCount(1);
    await expect(page.getByText(elsewhere)).toHaveCount(0);
    await expect(page.getByText(stranger.email)).toHaveCount(0);
    // A company's own log has no company column or filter.
    await expect(page.getByRole('columnheader', { name: 'Company' })).toHaveCount(0);

    await page.getByLabel('Action').click();
    await chooseOption(page, 'Role changed');
    await expect(tableRows(page)).toHaveCount(1);
    await expect(tableRows(page).first()).toContainText('User → Admin');
  } finally {
    await ownerContext.close();
    await memberApi.dispose();
    await strangerApi.dispose();
  }
});
