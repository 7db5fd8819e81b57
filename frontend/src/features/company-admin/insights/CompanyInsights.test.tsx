import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InsightsCounters, InsightsReport } from '@contracts/insights';
import { useCompanyStore } from '../../../stores/companyStore';
import { mockFetch } from '../../../test/mockFetch';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { CompanyInsights } from './CompanyInsights';
import { notifyInsightsTick } from '../../../sync/insightsTicks';
import { insightsCsv } from './insightsFormat';

// The charts are pictures of the tables (recharts measures a layout jsdom does not have).
vi.mock('./InsightsCharts', () => ({ default: () => <div>chart</div> }));

const none = { count: 0, p50Ms: null, p95Ms: null, avgMs: null };
function counters(over: Partial<InsightsCounters> = {}): InsightsCounters {
  return {
    messages: 0,
    replies: 0,
    activeUsers: 0,
    chats: 0,
    failed: 0,
    failures: {
      timeout: 0,
      http_status: 0,
      malformed: 0,
      ssrf_refused: 0,
      callback_expired: 0,
      network: 0,
      agent_error: 0,
      other: 0,
    },
    retries: 0,
    latency: none,
    firstChunk: none,
    thumbsUp: 0,
    thumbsDown: 0,
    ...over,
  };
}

function report(messages: number): InsightsReport {
  const echo = counters({
    messages,
    replies: messages,
    activeUsers: 1,
    chats: 1,
    latency: { count: messages, p50Ms: 420, p95Ms: 1800, avgMs: 600 },
    thumbsUp: 3,
    thumbsDown: 1,
  });
  const failing = counters({
    messages: 2,
    failed: 2,
    retries: 4,
    failures: { ...counters().failures, http_status: 2 },
  });
  return {
    from: '2026-01-01T00:00:00.000Z',
    to: '2026-01-02T00:00:00.000Z',
    bucket: 'hour',
    total: counters({
      messages: messages + 2,
      replies: messages,
      activeUsers: 1,
      chats: 2,
      failed: 2,
      retries: 4,
      failures: failing.failures,
      latency: echo.latency,
      thumbsUp: 3,
      thumbsDown: 1,
    }),
    agents: [
      { agentId: 'a1', agentName: 'Echo', ...echo },
      { agentId: 'a2', agentName: 'Failing', ...failing },
    ],
    series: [
      {
        at: '2026-01-01T10:00:00.000Z',
        messages: messages + 2,
        replies: messages,
        failed: 2,
        latencyP50Ms: 420,
        latencyP95Ms: 1800,
      },
    ],
  };
}

function inCompany(role: 'owner' | 'admin' = 'admin') {
  useCompanyStore
    .getState()
    .setCompanies([{ id: 'c1', name: 'Acme', role, createdAt: '2024-01-01T00:00:00Z' }]);
  useCompanyStore.getState().setCurrentCompany('c1');
}

describe('Company Admin → Insights', () => {
  afterEach(() => {
    useCompanyStore.getState().reset();
    vi.restoreAllMocks();
  });

  it('shows the totals, the agents with their failures by kind and latency, and each chart’s numbers', async () => {
    inCompany();
    const calls = mockFetch(() => [200, report(3)]);
    renderWithProviders(<CompanyInsights />);

    expect(await screen.findByTestId('insights-messages')).toHaveTextContent('5');
    expect(screen.getByTestId('insights-failures')).toHaveTextContent('2');
    expect(screen.getByTestId('insights-latency-p50')).toHaveTextContent('420 ms');
    expect(screen.getByTestId('insights-latency-p95')).toHaveTextContent('1.8 s');
    expect(screen.getByTestId('insights-thumbs')).toHaveTextContent('75% (3 of 4)');

    const agents = screen.getByRole('table', { name: 'Per agent' });
    const failingRow = within(agents).getByText('Failing').closest('tr')!;
    expect(failingRow).toHaveTextContent('2: HTTP status 2');
    const kinds = screen.getByRole('table', { name: 'Failures by kind' });
    expect(within(kinds).getByText('HTTP status').closest('tr')).toHaveTextContent('2');
    // Every chart has its numbers in a table.
    expect(screen.getByRole('table', { name: 'Messages and failures', hidden: true })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Reply latency', hidden: true })).toBeInTheDocument();

    expect(calls[0].path).toMatch(/^\/api\/company\/insights\?from=.+&to=.+$/);
  });

  it('reads the numbers again when the server says they moved, not otherwise', async () => {
    inCompany();
    let messages = 3;
    const calls = mockFetch(() => [200, report(messages)]);
    renderWithProviders(<CompanyInsights />);
    expect(await screen.findByTestId('insights-messages')).toHaveTextContent('5');

    messages = 4;
    act(() => notifyInsightsTick('another-company'));
    expect(calls).toHaveLength(1);
    act(() => notifyInsightsTick('c1'));
    await waitFor(() => expect(screen.getByTestId('insights-messages')).toHaveTextContent('6'));
    expect(calls).toHaveLength(2);
  });

  it('asks for another range and one agent', async () => {
    inCompany();
    const calls = mockFetch(() => [200, report(3)]);
    renderWithProviders(<CompanyInsights />);
    const user = userEvent.setup();
    await screen.findByTestId('insights-messages');

    await user.click(screen.getByText('7 d'));
    await waitFor(() => expect(calls).toHaveLength(2));
    const [from, to] = ['from', 'to'].map((k) =>
      Date.parse(new URL(calls[1].path, 'http://x').searchParams.get(k)!),
    );
    expect(Math.round((to - from) / 86_400_000)).toBe(7);

    await user.click(screen.getByRole('combobox', { name: 'Agent' }));
    await user.click(await screen.findByTitle('Echo'));
    await waitFor(() => expect(calls.at(-1)!.path).toContain('agentId=a1'));
  });

  it('shows a refusal readably', async () => {
    inCompany();
    mockFetch(() => [400, { error: 'VALIDATION_FAILED', message: 'The range can cover at most 90 days' }]);
    renderWithProviders(<CompanyInsights />);
    expect(await screen.findByText('The range can cover at most 90 days')).toBeInTheDocument();
  });

  it('exports the numbers as CSV, one row per agent and a total, formulas defused', () => {
    const r = report(3);
    const csv = insightsCsv(
      [
        { name: '=Echo', counters: r.agents[0] },
        { name: 'Total', counters: r.total },
      ],
      r,
    );
    const lines = csv.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^Agent,From,To,Messages,Replies,Active users,Chats,Failures,Failures: Timeout,/,
    );
    expect(lines[1]).toMatch(/^"'=Echo",2026-01-01T00:00:00.000Z,2026-01-02T00:00:00.000Z,3,3,1,1,0,/);
    expect(lines[2]).toContain('Total');
  });
});
