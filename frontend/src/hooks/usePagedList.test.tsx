import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { InvitationView, MemberView } from '../api/contracts';
import { ApiError, SERVER_ERROR_MESSAGE } from '../api/errors';
import { useCompanyAdminStore } from '../stores/companyAdminStore';
import { dispatch } from '../sync/dispatch';
import { PagedList, type Page } from '../sync/pagedList';
import { usePagedList } from './usePagedList';

// The network boundary: each request waits until the test answers or fails it.
interface Asked {
  key: Key;
  cursor: string | null;
  answer: (page: Page<MemberView>) => void;
  fail: (cause: unknown) => void;
}
interface Key {
  companyId: string;
  search: string;
}
let asked: Asked[] = [];

const store = () => useCompanyAdminStore.getState();
const scope = {
  hold: ({ companyId }: { companyId: string }) => {
    if (store().companyId !== companyId) store().reset(companyId);
  },
  holds: ({ companyId }: { companyId: string }) => store().companyId === companyId,
};

/** A list as a company admin page wires one: rows in the company admin store, held per company. */
function memberList(): PagedList<Key, MemberView> {
  return new PagedList<Key, MemberView>({
    ...scope,
    fetch: (key, cursor) => new Promise((answer, fail) => asked.push({ key, cursor, answer, fail })),
    setFirstPage: ({ search }, page) => store().setMembers(page.items, page.nextCursor, search),
    appendPage: (_key, page) => store().appendMembers(page.items, page.nextCursor),
  });
}

const member = (n: number, overrides: Partial<MemberView> = {}): MemberView => ({
  userId: `u${n}`,
  name: `Member ${n}`,
  email: `m${n}@example.com`,
  avatar: '/placeholder.svg',
  role: 'user',
  joinedAt: '2024-05-01T10:00:00.000Z',
  ...overrides,
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => member(from + i));
const ids = () => store().members.items.map((m) => m.userId);

describe('PagedList: the one list primitive', () => {
  beforeEach(() => {
    asked = [];
    store().reset(null);
  });

  it('keeps the newest request: an older search answered last does not replace it', async () => {
    const list = memberList();
    const older = list.load({ companyId: 'c1', search: 'a' });
    const newer = list.load({ companyId: 'c1', search: 'ab' });
    asked[1].answer({ items: [member(2)], nextCursor: null });
    await newer;
    expect(list.getStatus().loading).toBe(false);
    asked[0].answer({ items: range(1, 3), nextCursor: 'after-3' });
    await older;
    expect(ids()).toEqual(['u2']);
    expect(store().members).toMatchObject({ search: 'ab', nextCursor: null });
    expect(list.getStatus()).toMatchObject({ hasMore: false, loading: false });
  });

  it('stays loading while the newest request is out, whatever older ones answer', async () => {
    const list = memberList();
    const older = list.load({ companyId: 'c1', search: 'a' });
    void list.load({ companyId: 'c1', search: 'ab' });
    asked[0].answer({ items: range(1, 3), nextCursor: null });
    await older;
    expect(ids()).toEqual([]);
    expect(list.getStatus().loading).toBe(true);
  });

  it("drops the old company's answer after a switch, for this list and for another of the same store", async () => {
    const list = memberList();
    const invitations: PagedList<{ companyId: string }, InvitationView> = new PagedList({
      ...scope,
      fetch: () => Promise.resolve({ items: [{ id: 'i1' } as InvitationView], nextCursor: null }),
      setFirstPage: (_key, page) => store().setInvitations(page.items),
    });
    const first = list.load({ companyId: 'c1', search: '' });
    const firstInvitations = invitations.load({ companyId: 'c1' });
    const second = list.load({ companyId: 'c2', search: '' });
    expect(store().companyId).toBe('c2');
    asked[1].answer({ items: [member(20)], nextCursor: null });
    await second;
    asked[0].answer({ items: [member(10)], nextCursor: null });
    await Promise.all([first, firstInvitations]);
    expect(ids()).toEqual(['u20']);
    expect(store().invitations).toEqual({ items: [], loaded: false });
    // Nothing to refresh for a company the store no longer holds.
    await invitations.refresh();
    expect(store().invitations.loaded).toBe(false);
  });

  it('appends pages after the first, merged by id, and stops at the null cursor', async () => {
    const list = memberList();
    const first = list.load({ companyId: 'c1', search: '' });
    asked[0].answer({ items: range(1, 3), nextCursor: 'after-3' });
    await first;
    expect(list.getStatus().hasMore).toBe(true);
    const more = list.loadMore();
    // One page at a time: a second click while it loads asks nothing.
    await list.loadMore();
    expect(asked).toHaveLength(2);
    expect(asked[1]).toMatchObject({ key: { companyId: 'c1', search: '' }, cursor: 'after-3' });
    expect(list.getStatus().loadingMore).toBe(true);
    asked[1].answer({ items: range(3, 5), nextCursor: null });
    await more;
    expect(ids()).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
    expect(list.getStatus()).toMatchObject({ hasMore: false, loadingMore: false });
    await list.loadMore();
    expect(asked).toHaveLength(2);
  });

  it('drops a next page asked before the list was loaded again', async () => {
    const list = memberList();
    const first = list.load({ companyId: 'c1', search: '' });
    asked[0].answer({ items: range(1, 3), nextCursor: 'after-3' });
    await first;
    const more = list.loadMore();
    const again = list.load({ companyId: 'c1', search: '' });
    asked[2].answer({ items: range(1, 2), nextCursor: 'after-2' });
    await again;
    asked[1].answer({ items: range(4, 6), nextCursor: null });
    await more;
    expect(ids()).toEqual(['u1', 'u2']);
    expect(list.getStatus().hasMore).toBe(true);
  });

  it('applies an event that came while the request was out again after its answer', async () => {
    const list = memberList();
    const loading = list.load({ companyId: 'c1', search: '' });
    dispatch({ name: 'member.updated', payload: { companyId: 'c1', member: member(2, { role: 'admin' }) } });
    // The answer was read before the change.
    asked[0].answer({ items: range(1, 3), nextCursor: null });
    await loading;
    expect(store().members.items.map((m) => m.role)).toEqual(['user', 'admin', 'user']);
  });

  it('a refresh asks again for the newest key, quietly: no spinner, and a failure leaves the rows', async () => {
    const list = memberList();
    const first = list.load({ companyId: 'c1', search: 'ada' });
    asked[0].answer({ items: [member(1)], nextCursor: null });
    await first;
    const refreshed = list.refresh();
    expect(asked[1]).toMatchObject({ key: { companyId: 'c1', search: 'ada' }, cursor: null });
    expect(list.getStatus().loading).toBe(false);
    asked[1].fail(new ApiError('http', 503));
    await refreshed;
    expect(ids()).toEqual(['u1']);
    expect(list.getStatus().error).toBeNull();
  });
});

describe('usePagedList', () => {
  beforeEach(() => {
    asked = [];
    store().reset(null);
  });

  it('loads the first page on mount and again, from the first page, for a new search', async () => {
    const list = memberList();
    const { result, rerender } = renderHook(({ search }) => usePagedList(list, { companyId: 'c1', search }), {
      initialProps: { search: '' },
    });
    expect(result.current.loading).toBe(true);
    await act(async () => asked[0].answer({ items: range(1, 3), nextCursor: 'after-3' }));
    expect(result.current).toMatchObject({ loading: false, hasMore: true, error: null });
    rerender({ search: 'ada' });
    // The same key by value (a new object each render) asks nothing more.
    rerender({ search: 'ada' });
    expect(asked.map((a) => [a.key.search, a.cursor])).toEqual([
      ['', null],
      ['ada', null],
    ]);
    expect(result.current.loading).toBe(true);
  });

  it('waits while there is no key', () => {
    const list = memberList();
    const { result } = renderHook(() => usePagedList(list, null));
    expect(asked).toHaveLength(0);
    expect(result.current.loading).toBe(true);
  });

  it("sets the one error policy's message and tells onError; a success clears it", async () => {
    const list = memberList();
    const onError = vi.fn();
    const { result } = renderHook(() => usePagedList(list, { companyId: 'c1', search: '' }, onError));
    await act(async () => asked[0].fail(new ApiError('http', 500)));
    await waitFor(() => expect(result.current.error).toBe(SERVER_ERROR_MESSAGE));
    expect(onError).toHaveBeenCalledWith(SERVER_ERROR_MESSAGE);
    expect(result.current.loading).toBe(false);

    await act(async () => {
      const again = result.current.reload();
      asked[1].answer({ items: [member(1)], nextCursor: null });
      await again;
    });
    expect(result.current.error).toBeNull();
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('reports a failed next page through onError and keeps the rows', async () => {
    const list = memberList();
    const onError = vi.fn();
    const { result } = renderHook(() => usePagedList(list, { companyId: 'c1', search: '' }, onError));
    await act(async () => asked[0].answer({ items: range(1, 2), nextCursor: 'after-2' }));
    await act(async () => {
      const more = result.current.loadMore();
      asked[1].fail(new TypeError('Failed to fetch'));
      await more;
    });
    expect(onError).toHaveBeenCalledWith('Network connection issue. Please check your internet connection.');
    expect(ids()).toEqual(['u1', 'u2']);
    expect(result.current).toMatchObject({ loadingMore: false, hasMore: true, error: null });
  });

  it('does not show what the list did before this mount', async () => {
    const list = memberList();
    const failed = list.load({ companyId: 'c1', search: '' });
    asked[0].fail(new ApiError('http', 500));
    await failed;
    const { result } = renderHook(() => usePagedList(list, { companyId: 'c1', search: '' }));
    expect(result.current).toMatchObject({ error: null, loading: true });
  });
});
