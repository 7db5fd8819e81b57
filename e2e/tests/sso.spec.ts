import { expect, request as apiRequest, test } from '@playwright/test';
import { E2E_IDP_CLIENT_ID, E2E_IDP_CLIENT_SECRET } from '../fixtures/oidc-idp';
import { linkFrom, waitForMail } from '../fixtures/mailbox';
import { newAccount } from '../fixtures/ui';
import { BASE_URL } from '../playwright.config';

const DOMAIN = 'acme.test';

test('the email step sends someone@acme.test to Acme’s provider and back into the chat', async ({ page }) => {
  const idp = process.env.E2E_IDP_URL as string;
  // Acme's owner sets up single sign-on through the API, in a context of its own (the page stays signed out).
  const api = await apiRequest.newContext({ baseURL: BASE_URL });
  const owner = newAccount('acme.owner', { companyName: 'Acme' });
  const registered = await api.post('/api/auth/register', {
    data: { email: owner.email, password: owner.password, fullName: owner.fullName, companyName: 'Acme' },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const { accessToken } = (await registered.json()) as { accessToken: string };
  const companies = await api.get('/api/companies', { headers: { authorization: `Bearer ${accessToken}` } });
  const [acme] = (await companies.json()) as Array<{ id: string }>;
  const headers = { authorization: `Bearer ${accessToken}`, 'x-company-id': acme.id };
  const saved = await api.put('/api/company/sso', {
    headers,
    data: {
      enabled: true,
      issuer: idp,
      clientId: E2E_IDP_CLIENT_ID,
      clientSecret: E2E_IDP_CLIENT_SECRET,
      requireSso: false,
      autoJoin: true,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const claimed = await api.post('/api/company/sso/domains', { headers, data: { domain: DOMAIN } });
  // 409: a retry of this test finds acme.test proved by the first attempt's Acme, which still has SSO on.
  expect([201, 409], await claimed.text()).toContain(claimed.status());
  if (claimed.status() === 201) {
    const proof = await waitForMail(`postmaster@${DOMAIN}`, { matching: /verify-domain/ });
    const token = linkFrom(proof, '/verify-domain').searchParams.get('token');
    expect((await api.post('/api/sso/domains/verify', { data: { token } })).status()).toBe(200);
  }
  const accounts = await api.post(`${idp}/_test/accounts`, {
    data: { [`someone@${DOMAIN}`]: { sub: 'acme-someone', email_verified: true } },
  });
  expect(accounts.status()).toBe(204);
  await api.dispose();

  await page.goto('/');
  await page.getByLabel('Email').fill(`someone@${DOMAIN}`);
  await page.getByRole('button', { name: 'Continue with SSO' }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByTestId('header-user-name')).toBeVisible();
});
