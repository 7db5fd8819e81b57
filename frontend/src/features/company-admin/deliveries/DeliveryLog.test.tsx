import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryDetail, DeliveryView } from '@contracts/deliveries';
import { useCompanyStore } from '../../../stores/companyStore';
import { mockFetch, type RecordedCall } from '../../../test/mockFetch';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { DeliveryLog } from './DeliveryLog';
import { DeliveryRetentionSettings } from './DeliveryRetentionSettings';
import { bulkReplaySummary } from './deliveryFormat';

function delivery(id: string, over: Partial<DeliveryView> = {}): DeliveryView {
  return {
    id,
    agentId: 'a1',
    agentName: 'Echo',
    chatId: 'c-1',
    messageId: `m-${id}`,
    replyId: null,
    round: 0,
    startedAt: '2026-01-01T10:00:00.000Z',
    durationMs: 420,
    attempts: 1,
    outcome: 'delivered',
    httpStatus: 200,
    requestId: `m-${id}`,
    error: null,
    replayOf: null,
    replayedAt: null,
    ...over,
  };
}

const failing = delivery('d2', {
  agentId: 'a2',
  agentName: 'Failing',
  outcome: 'http_status',
  httpStatus: 500,
  attempts: 3,
  error: 'Webhook response error: 500',
});

function detail(view: DeliveryView, over: Partial<DeliveryDetail> = {}): DeliveryDetail {
  return {
    ...view,
    bodiesKept: true,
    requestHeaders: { 'webhook-id': view.requestId, 'webhook-signature': '[redacted]' },
    requestBody: '{"message":"hello","callbackToken":"[redacted]"}',
    responseBody: 'boom',
    ...over,
  };
}

function inCompany() {
  useCompanyStore
    .getState()
    .setCompanies([{ id: 'c1', name: 'Acme', role: 'admin', createdAt: '2024-01-01T00:00:00Z' }]);
  useCompanyStore.getState().setCurrentCompany('c1');
}

const agents = [
  { id: 'a1', name: 'Echo' },
  { id: 'a2', name: 'Failing' },
];

/** The API as the page uses it: two pages of deliveries, the agents, details, replays. */
function api(extra: (call: RecordedCall) => [number, unknown?] | null = () => null) {
  return mockFetch((call) => {
    const answered = extra(call);
    if (answered) return answered;
    const url = new URL(call.path, 'http://x');
    if (url.pathname === '/api/company/agents') return [200, agents];
    if (url.pathname === '/api/company/deliveries' && call.method === 'GET')
      return url.searchParams.get('before')
        ? [200, { deliveries: [delivery('d3', { startedAt: '2026-01-01T09:00:00.000Z' })], nextCursor: null }]
        : [200, { deliveries: [failing, delivery('d1')], nextCursor: 'next-page' }];
    if (url.pathname === '/api/company/deliveries/d2') return [200, detail(failing)];
    if (url.pathname === '/api/company/deliveries/d1')
      return [200, detail(delivery('d1'), { bodiesKept: false })];
    if (url.pathname === '/api/company/deliveries/d2/replay')
      return [200, detail(failing, { replayedAt: '2026-01-01T11:00:00.000Z' })];
    if (url.pathname === '/api/company/deliveries/replay')
      return [200, { replayed: 2, skipped: 1, overCap: 0 }];
    return [404, { message: 'not here' }];
  });
}

describe('Company Admin → Delivery log', () => {
  afterEach(() => {
    useCompanyStore.getState().reset();
    vi.restoreAllMocks();
  });

  it('lists the deliveries with their facts, and loads older ones on demand', async () => {
    inCompany();
    const calls = api();
    renderWithProviders(<DeliveryLog />);
    const table = await screen.findByRole('table', { name: 'Deliveries' });
    const row = (await within(table).findByText('Failing')).closest('tr')!;
    expect(row).toHaveTextContent('HTTP status');
    expect(row).toHaveTextContent('500');
    expect(row).toHaveTextContent('420 ms');
    expect(row).toHaveTextContent('m-d2');
    // Replay is offered on failed rows only.
    expect(within(table).getAllByRole('button', { name: /^Replay the delivery/ })).toHaveLength(1);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Load more' }));
    await within(table).findByText('m-d3');
    expect(calls.some((c) => c.path.includes('before=next-page'))).toBe(true);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('filters by outcome and agent', async () => {
    inCompany();
    const calls = api();
    renderWithProviders(<DeliveryLog />);
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Deliveries' });
    await user.click(screen.getByRole('combobox', { name: 'Outcome' }));
    await user.click(await screen.findByTitle('Failed (any kind)'));
    await waitFor(() => expect(calls.at(-1)!.path).toBe('/api/company/deliveries?outcome=failed'));
    await user.click(screen.getByRole('combobox', { name: 'Agent' }));
    await user.click(await screen.findByTitle('Failing'));
    await waitFor(() => expect(calls.at(-1)!.path).toBe('/api/company/deliveries?agentId=a2&outcome=failed'));
  });

  it('opens a delivery with its redacted bodies, or says they are not kept', async () => {
    inCompany();
    api();
    renderWithProviders(<DeliveryLog />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Open the delivery of .* to Failing$/ }));
    // Titled (labelled by its title: ids are fixed in tests, so the name is checked as its text).
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('Delivery to Failing')).toBeInTheDocument();
    const body = await within(drawer).findByRole('region', { name: 'Request body' });
    expect(body).toHaveTextContent('"callbackToken": "[redacted]"');
    expect(within(drawer).getByRole('region', { name: 'Answer' })).toHaveTextContent('boom');
    expect(within(drawer).getByText('Webhook response error: 500')).toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Close' }));
    await user.click(screen.getByRole('button', { name: /^Open the delivery of .* to Echo$/ }));
    const kept = await screen.findByRole('dialog');
    expect(await within(kept).findByText('Delivery to Echo')).toBeInTheDocument();
    expect(await within(kept).findByText('Bodies are not kept')).toBeInTheDocument();
  });

  it('replays a failed delivery and says so', async () => {
    inCompany();
    const calls = api();
    renderWithProviders(<DeliveryLog />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Replay the delivery of .* to Failing$/ }));
    expect(await screen.findByText('Replay queued: the reply goes to the user’s chat.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/company/deliveries/d2/replay')).toBe(
      true,
    );
  });

  it('shows a refused replay readably', async () => {
    inCompany();
    api((call) =>
      call.path.endsWith('/replay')
        ? [409, { error: 'CONFLICT', message: 'This delivery has already been replayed.' }]
        : null,
    );
    renderWithProviders(<DeliveryLog />);
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: /^Replay the delivery of .* to Failing$/ }));
    expect(await screen.findByText('This delivery has already been replayed.')).toBeInTheDocument();
  });

  it('replays every failed delivery of an agent since a time, after confirming, with the count', async () => {
    inCompany();
    const calls = api();
    renderWithProviders(<DeliveryLog />);
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Deliveries' });
    await user.click(screen.getByRole('button', { name: /Replay failed since…/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Replay failed deliveries')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Failed since')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Replay' }));
    expect(await within(dialog).findByText('Choose an agent')).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('Agent'));
    await user.click(await screen.findByTitle('Failing', { exact: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Replay' }));
    expect(await screen.findByText('Replayed 2 failed deliveries (1 could not be)')).toBeInTheDocument();
    const bulk = calls.find((c) => c.path === '/api/company/deliveries/replay')!;
    expect(bulk.body).toMatchObject({ agentId: 'a2', since: expect.any(String) });
    const since = Date.parse((bulk.body as { since: string }).since);
    expect(Date.now() - since).toBeGreaterThan(50 * 60_000);
  });

  it('words a bulk result', () => {
    expect(bulkReplaySummary({ replayed: 1, skipped: 0, overCap: 0 })).toBe('Replayed 1 failed delivery');
    expect(bulkReplaySummary({ replayed: 100, skipped: 0, overCap: 20 })).toBe(
      'Replayed 100 failed deliveries (20 more over the limit: replay again for them)',
    );
  });

  it('reads and saves the retention of the bodies', async () => {
    const calls = mockFetch((call) =>
      call.method === 'GET' ? [200, { retentionDays: 7 }] : [200, call.body as object],
    );
    renderWithProviders(<DeliveryRetentionSettings companyId="c1" />);
    const input = await screen.findByLabelText('Keep request and answer bodies for (days)');
    expect(input).toHaveValue('7');
    const user = userEvent.setup();
    await user.clear(input);
    await user.type(input, '0');
    await user.click(screen.getByRole('button', { name: 'Save retention' }));
    await screen.findByText('Delivery log retention saved');
    expect(calls.at(-1)).toMatchObject({
      method: 'PATCH',
      path: '/api/company/delivery-settings',
      body: { retentionDays: 0 },
    });
  });
});
