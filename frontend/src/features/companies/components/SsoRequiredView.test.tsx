import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SSO_REQUIRED_MESSAGE } from '../../../api/contracts';
import { createHttpClient, type RequestOptions } from '../../../api/httpClient';
import { ApiError, getErrorMessage } from '../../../api/errors';
import { inCompany } from '../../../api/companyScope';
import { useCompanyStore } from '../../../stores/companyStore';
import { useSessionStore } from '../../../stores/sessionStore';
import { dispatch } from '../../../sync/dispatch';
import { userView } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/renderWithProviders';

const ssoLookup = vi.fn<(email: string) => Promise<{ sso: boolean }>>();
vi.mock('../../../api/authApi', () => ({
  authApi: { ssoLookup: (email: string) => ssoLookup(email) },
  ssoSignInUrl: (email: string) => `/api/auth/sso/start?email=${encodeURIComponent(email)}`,
}));
// The chat screen itself is not what these tests are about: a marker stands in for it.
vi.mock('../../chat/components/ChatShell', () => ({
  ChatShell: ({ children }: { children: unknown }) => (
    <div data-testid="chat-screen">{children as never}</div>
  ),
}));
vi.mock('../../chat/components/ChatView', () => ({ ChatView: () => null }));
vi.mock('../../chat/hooks/useCompanyChatData', () => ({ useCompanyChatData: () => undefined }));

const { ChatPage } = await import('../../../pages/ChatPage');

const companies = [
  { id: 'c1', name: 'Acme', role: 'user' as const, createdAt: '2024-01-01T00:00:00Z', ssoRequired: true },
  { id: 'c2', name: 'Mine', role: 'owner' as const, createdAt: '2024-01-01T00:00:00Z' },
];

describe('a company that requires single sign-on from this session', () => {
  beforeEach(() => {
    useSessionStore.setState({
      status: 'authenticated',
      user: userView({ id: 'u1', email: 'grace@acme.test' }),
    });
    useCompanyStore.getState().setCompanies(companies);
    useCompanyStore.getState().setCurrentCompany('c1');
  });
  afterEach(() => {
    useCompanyStore.getState().reset();
    useSessionStore.setState({ status: 'idle', user: null });
    ssoLookup.mockReset();
  });

  it('shows the notice instead of the chat, with Continue with SSO when the address has it', async () => {
    ssoLookup.mockResolvedValue({ sso: true });
    renderWithProviders(<ChatPage />, { path: '/chat' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Single sign-on required' }),
    ).toBeInTheDocument();
    expect(screen.getByText(SSO_REQUIRED_MESSAGE)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Continue with SSO' })).toBeInTheDocument();
    expect(ssoLookup).toHaveBeenCalledWith('grace@acme.test');
    expect(screen.getByText('Your other companies are in the user menu.')).toBeInTheDocument();
    expect(screen.queryByTestId('chat-screen')).toBeNull();
  });

  it('says whom to ask when the address is not at one of the company’s domains', async () => {
    ssoLookup.mockResolvedValue({ sso: false });
    renderWithProviders(<ChatPage />, { path: '/chat' });
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your address is not at a domain Acme signs in with. Ask one of its owners for help.',
    );
    expect(screen.queryByRole('button', { name: 'Continue with SSO' })).toBeNull();
  });

  it('follows the live event both ways: the chat comes back when single sign-on is no longer required', async () => {
    ssoLookup.mockResolvedValue({ sso: true });
    renderWithProviders(<ChatPage />, { path: '/chat' });
    await screen.findByRole('heading', { name: 'Single sign-on required' });
    dispatch({ name: 'company.sso_required', payload: { companyId: 'c1', required: false } });
    expect(await screen.findByTestId('chat-screen')).toBeInTheDocument();
    expect(useCompanyStore.getState().companies[0]).not.toHaveProperty('ssoRequired');
    dispatch({ name: 'company.sso_required', payload: { companyId: 'c1', required: true } });
    expect(await screen.findByRole('heading', { name: 'Single sign-on required' })).toBeInTheDocument();
    // Another company's switch leaves the one on screen as it is.
    dispatch({ name: 'company.sso_required', payload: { companyId: 'c2', required: true } });
    expect(useCompanyStore.getState().companies.map((c) => !!c.ssoRequired)).toEqual([true, true]);
  });
});

describe('the http client tells who listens of error answers', () => {
  it('hands the error and the call’s options (its company) to the listener', async () => {
    const body = { statusCode: 403, error: 'SSO_REQUIRED', message: SSO_REQUIRED_MESSAGE };
    const fetchFn = vi.fn<typeof fetch>(() =>
      Promise.resolve(
        new Response(JSON.stringify(body), { status: 403, headers: { 'Content-Type': 'application/json' } }),
      ),
    );
    const client = createHttpClient({ fetchFn });
    const heard: Array<{ error: ApiError; options: RequestOptions }> = [];
    const stop = client.onApiError((error, options) => heard.push({ error, options }));
    const failed = await client.get('/api/agents', inCompany('c1', { auth: false })).catch((e: unknown) => e);
    expect(heard).toHaveLength(1);
    expect(heard[0]?.error.code).toBe('SSO_REQUIRED');
    expect(heard[0]?.options.headers?.['X-Company-Id']).toBe('c1');
    // Unlike other 403s, the message says what to do.
    expect(getErrorMessage(failed)).toBe(SSO_REQUIRED_MESSAGE);
    stop();
    await client.get('/api/agents', inCompany('c1', { auth: false })).catch(() => undefined);
    expect(heard).toHaveLength(1);
  });
});
