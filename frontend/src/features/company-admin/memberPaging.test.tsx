import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MemberPage, MemberView } from '../../api/contracts';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { renderWithProviders } from '../../test/renderWithProviders';
import { useCompanyAdminStore } from '../../stores/companyAdminStore';
import { dispatch } from '../../sync/dispatch';
import { useCompanyStore } from '../../stores/companyStore';

// The network boundary: each members request waits until the test answers it.
const requests: Array<{ search?: string; cursor?: string; answer: (p: MemberPage) => void }> = [];
vi.mock('../../api/companyAdminApi', () => ({
  companyAdminApi: {
    members: (_company: string, query: { search?: string; cursor?: string }) =>
      new Promise<MemberPage>((answer) => requests.push({ ...query, answer })),
  },
}));

const { adminLists } = await import('./companyAdminSync');
const members = adminLists.members;

const member = (n: number, overrides: Partial<MemberView> = {}): MemberView => ({
  userId: `u${String(n).padStart(3, '0')}`,
  name: `Member ${n}`,
  email: `m${n}@example.com`,
  avatar: '/placeholder.svg',
  role: 'user',
  joinedAt: '2024-05-01T10:00:00.000Z',
  ...overrides,
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => member(from + i));
const ids = () => useCompanyAdminStore.getState().members.items.map((m) => m.userId);

describe('Company Users, paged and searched by the server', () => {
  beforeEach(() => {
    requests.length = 0;
    useCompanyStore
      .getState()
      .setCompanies([{ id: 'c1', name: 'First', role: 'owner', createdAt: '2024-01-01T00:00:00Z' }]);
    useCompanyStore.getState().setCurrentCompany('c1');
    useCompanyAdminStore.getState().reset('c1');
  });
  afterEach(() => useCompanyStore.getState().reset());

  it('appends pages, and drops a page asked for a search that is no longer on screen', async () => {
    const first = members.load({ companyId: 'c1', search: '' });
    requests[0].answer({ members: range(1, 3), nextCursor: 'after-3' });
    await first;
    const more = members.loadMore();
    expect(requests[1]).toMatchObject({ cursor: 'after-3' });
    requests[1].answer({ members: range(3, 5), nextCursor: null });
    await more;
    expect(ids()).toEqual(['u001', 'u002', 'u003', 'u004', 'u005']);

    const searched = members.load({ companyId: 'c1', search: 'ada' });
    requests[2].answer({ members: [member(9, { name: 'Ada' })], nextCursor: 'after-9' });
    await searched;
    const stale = members.loadMore();
    expect(requests[3]).toMatchObject({ search: 'ada', cursor: 'after-9' });
    const cleared = members.load({ companyId: 'c1', search: '' });
    requests[4].answer({ members: range(1, 2), nextCursor: 'after-2' });
    await cleared;
    requests[3].answer({ members: [member(10, { name: 'Ada B' })], nextCursor: null });
    await stale;
    expect(ids()).toEqual(['u001', 'u002']);
    expect(useCompanyAdminStore.getState().members).toMatchObject({ search: '', nextCursor: 'after-2' });
  });

  it('a member who joins shows at once only when every page is in and no search narrows the list', () => {
    useCompanyAdminStore.getState().setMembers(range(1, 2), 'after-2', '');
    const joined = { companyId: 'c1', member: member(50) };
    dispatch({ name: 'member.joined', payload: joined });
    expect(ids()).toEqual(['u001', 'u002']);
    // A known member's change shows whatever the paging.
    dispatch({ name: 'member.updated', payload: { companyId: 'c1', member: member(2, { role: 'admin' }) } });
    expect(useCompanyAdminStore.getState().members.items[1].role).toBe('admin');
    useCompanyAdminStore.getState().setMembers(range(1, 2), null, 'mem');
    dispatch({ name: 'member.joined', payload: joined });
    expect(ids()).toEqual(['u001', 'u002']);
    useCompanyAdminStore.getState().setMembers(range(1, 2), null, '');
    dispatch({ name: 'member.joined', payload: joined });
    expect(ids()).toEqual(['u001', 'u002', 'u050']);
  });
});

describe('DataTable over a server-paged list', () => {
  const columns: DataTableColumn<MemberView>[] = [{ key: 'name', title: 'User', value: (m) => m.name }];

  function ServerTable({ onLoadMore, onFilter }: { onLoadMore: () => void; onFilter: (t: string) => void }) {
    const [rows, setRows] = useState(range(1, 15));
    const [filter, setFilter] = useState('');
    return (
      <DataTable<MemberView>
        label="Company users"
        columns={columns}
        data={rows}
        rowKey={(m) => m.userId}
        server={{
          filter,
          onFilterChange: (text) => {
            setFilter(text);
            onFilter(text);
          },
          hasMore: rows.length < 25,
          onLoadMore: () => {
            onLoadMore();
            setRows(range(1, 25));
          },
        }}
      />
    );
  }

  it('hands the filter text to the server, and Next past the loaded rows loads more', async () => {
    const onLoadMore = vi.fn();
    const onFilter = vi.fn();
    renderWithProviders(<ServerTable onLoadMore={onLoadMore} onFilter={onFilter} />);
    const user = userEvent.setup();
    expect(screen.getByText('Page 1 of 2+ (15+ rows)')).toBeInTheDocument();
    // The server filters: the rows on screen are not filtered here.
    await user.type(screen.getByPlaceholderText('Filter by User...'), 'zz');
    expect(onFilter).toHaveBeenLastCalledWith('zz');
    expect(within(screen.getByRole('table')).getByText('Member 1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Page 2 of 3 (25 rows)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Page 3 of 3 (25 rows)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});
