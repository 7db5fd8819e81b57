import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AuditFilter } from '../api/auditApi';
import type { AuditEntryView, AuditPage } from '../api/contracts';
import { ApiError } from '../api/errors';
import { COMPANY_AUDIT_ACTIONS, PLATFORM_AUDIT_ACTIONS } from '../lib/auditLabels';
import { renderWithProviders } from '../test/renderWithProviders';
import { AuditLogTable } from './AuditLogTable';

const entry = (id: number, overrides: Partial<AuditEntryView> = {}): AuditEntryView => ({
  id: String(id),
  action: 'auth.sign_in',
  actor: { id: `user-${id}`, label: `user${id}@example.com` },
  target: { type: 'user', id: `user-${id}`, label: `user${id}@example.com` },
  company: null,
  ip: `10.0.0.${id}`,
  details: { method: 'password' },
  createdAt: new Date(2026, 10, 22, 15, 4).toISOString(),
  ...overrides,
});

const rows = () =>
  screen
    .getAllByRole('row')
    .filter((row) => within(row).queryAllByRole('cell').length > 1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

// antd under jsdom is slow on a busy machine: these walk whole user flows.
describe('AuditLogTable', { timeout: 30_000 }, () => {
  it('shows time, actor, action (with its details), target, company and IP; loads more by cursor', async () => {
    const fetchPage = vi.fn((_filter: AuditFilter, before: string | null): Promise<AuditPage> =>
      Promise.resolve(
        before
          ? { entries: [entry(1)], nextCursor: null }
          : {
              entries: [
                entry(3, {
                  action: 'member.role_changed',
                  company: { id: 'c1', name: 'Acme' },
                  details: { from: 'user', to: 'admin' },
                }),
                entry(2, {
                  action: 'auth.sign_in_failed',
                  actor: { id: null, label: 'guess@example.com' },
                  target: null,
                  details: { method: 'password' },
                }),
              ],
              nextCursor: '2',
            },
      ),
    );
    renderWithProviders(
      <AuditLogTable
        label="Audit log"
        fetchPage={fetchPage}
        actions={PLATFORM_AUDIT_ACTIONS}
        searchCompanies={() => Promise.resolve([])}
        emptyText="No audit entries yet."
      />,
    );
    await screen.findByText('Role changed');
    expect(rows()).toEqual([
      [
        'Nov 22, 2026 3:04 PM',
        'user3@example.com',
        'Role changedUser → Admin',
        'user3@example.com',
        'Acme',
        '10.0.0.3',
      ],
      [
        'Nov 22, 2026 3:04 PM',
        'guess@example.com',
        'Failed sign-inwrong email or password',
        '—',
        '—',
        '10.0.0.2',
      ],
    ]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[2][1]).toBe('user1@example.com');
    expect(fetchPage).toHaveBeenLastCalledWith({ action: null, actor: '', companyId: null }, '2');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('filters by action and actor (labelled fields), and by a company clicked in a row', async () => {
    const fetchPage = vi.fn((_filter: AuditFilter, _before: string | null): Promise<AuditPage> =>
      Promise.resolve({
        entries: [entry(5, { action: 'agent.deleted', company: { id: 'c9', name: 'Globex' } })],
        nextCursor: null,
      }),
    );
    renderWithProviders(
      <AuditLogTable
        label="Audit log"
        fetchPage={fetchPage}
        actions={PLATFORM_AUDIT_ACTIONS}
        searchCompanies={() => Promise.resolve([])}
        emptyText="No audit entries yet."
      />,
    );
    const user = userEvent.setup();
    await screen.findByText('Agent deleted');
    await user.click(screen.getByLabelText('Action'));
    await user.click(await screen.findByTitle('Failed sign-in'));
    await waitFor(() =>
      expect(fetchPage).toHaveBeenLastCalledWith(
        { action: 'auth.sign_in_failed', actor: '', companyId: null },
        null,
      ),
    );
    await user.type(screen.getByLabelText('Actor'), 'Ada@{Enter}');
    await waitFor(() =>
      expect(fetchPage).toHaveBeenLastCalledWith(
        { action: 'auth.sign_in_failed', actor: 'Ada@', companyId: null },
        null,
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Show only Globex' }));
    await waitFor(() =>
      expect(fetchPage).toHaveBeenLastCalledWith(
        { action: 'auth.sign_in_failed', actor: 'Ada@', companyId: 'c9' },
        null,
      ),
    );
    expect(screen.getByLabelText('Company')).toBeTruthy();
  });

  it('says when there is nothing, and shows a failed load readably with a retry', async () => {
    const fetchPage = vi
      .fn<(filter: AuditFilter, before: string | null) => Promise<AuditPage>>()
      .mockRejectedValueOnce(new ApiError('http', 400, { message: 'before must be an audit entry id' }))
      .mockResolvedValue({ entries: [], nextCursor: null });
    renderWithProviders(
      <AuditLogTable
        label="Company activity"
        fetchPage={fetchPage}
        actions={COMPANY_AUDIT_ACTIONS}
        emptyText="No activity yet."
      />,
    );
    expect(
      await screen.findByText('Failed to load the audit log: before must be an audit entry id'),
    ).toBeTruthy();
    // The company's own log has no company column or filter.
    expect(screen.queryByLabelText('Company')).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Company' })).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No activity yet.')).toBeTruthy();
  });

  it("keeps the rows when a further page fails, and drops an older filter's late answer", async () => {
    let answerAll: (page: AuditPage) => void = () => undefined;
    const fetchPage = vi.fn((filter: AuditFilter, before: string | null): Promise<AuditPage> => {
      if (before) return Promise.reject(new ApiError('network', 0));
      // The unfiltered first page answers late, after the filtered one.
      if (!filter.actor) return new Promise((resolve) => (answerAll = resolve));
      return Promise.resolve({ entries: [entry(7)], nextCursor: '7' });
    });
    renderWithProviders(
      <AuditLogTable
        label="Company activity"
        fetchPage={fetchPage}
        actions={COMPANY_AUDIT_ACTIONS}
        emptyText="No activity yet."
      />,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Actor'), 'user7{Enter}');
    await waitFor(() => expect(rows()).toHaveLength(1));
    answerAll({ entries: [entry(1), entry(2)], nextCursor: null });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rows()).toHaveLength(1);
    expect(rows()[0].join(' ')).toContain('user7@example.com');

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText(/^Failed to load the audit log: /)).toBeTruthy();
    expect(rows()).toHaveLength(1);
  });
});
