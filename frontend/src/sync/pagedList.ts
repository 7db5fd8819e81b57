import { getErrorMessage } from '../api/errors';
import { fetchAndApply, type SyncTopic } from './dispatch';

/**
 * The one list primitive: every server list the admin pages show (company admin: members, invitations,
 * agents, details; platform admin: companies, users, agents) is a `PagedList`, and `usePagedList`
 * (hooks/) shows it. It decides alone whether an answer is still the list's: the newest request wins,
 * so the answer to an older search, an older company or a page of an older first page is dropped.
 * Answers go through `fetchAndApply`, so an event that came while a request was in flight is applied
 * again after its answer and is never undone by it.
 *
 * Adding a list, in order:
 * 1. its rows and their live updates in a store (`stores/`), with a "first page" and a "next page"
 *    action (`appendNew` in `stores/listRows.ts` merges a page by id);
 * 2. a `new PagedList<Key, Row>({ fetch, setFirstPage, appendPage })` next to its API calls in its
 *    feature (a company-scoped list adds `hold`/`holds` for the store's company and `topic: 'admin'`
 *    so that a resync after a reconnect may `refresh` it);
 * 3. `usePagedList(list, key, onError)` in the page, reading the rows from the store.
 * An unpaged list answers one page with `nextCursor: null`.
 */

export interface Page<T> {
  items: T[];
  /** The next page's cursor; null once the last page is in. */
  nextCursor: string | null;
}

/** Where a list's pages come from and where its rows go. `K` is plain JSON: a search, a company. */
export interface PagedListSource<K, T> {
  /** One page of the list for `key`, from `cursor` (null: the first page). */
  fetch(key: K, cursor: string | null): Promise<Page<T>>;
  /** The first page for `key`: it replaces the rows. */
  setFirstPage(key: K, page: Page<T>): void;
  /** The next page, after the rows (an unpaged list never has one). */
  appendPage?(key: K, page: Page<T>): void;
  /**
   * A company-scoped list: the store begins holding the key's company before it is asked (a switch
   * empties it), and an answer for a company the store no longer holds is dropped.
   */
  hold?(key: K): void;
  holds?(key: K): boolean;
  /** A list a resync reloads (see `fetchAndApply`). */
  topic?: SyncTopic;
}

export interface PagedListStatus {
  /** How many first-page loads were started: the newest one's number. */
  request: number;
  /** The newest load's key, as JSON; null before the first. */
  key: string | null;
  loading: boolean;
  loadingMore: boolean;
  /** The rows on screen have a next page. */
  hasMore: boolean;
  /** The one error policy's message (`getErrorMessage`) of the last failed load, until one succeeds. */
  error: string | null;
  /** The load whose failure set `error`. */
  errorOf: number;
}

export class PagedList<K, T> {
  private status: PagedListStatus = {
    request: 0,
    key: null,
    loading: false,
    loadingMore: false,
    hasMore: false,
    error: null,
    errorOf: 0,
  };
  private readonly listeners = new Set<() => void>();
  /** The newest load's key, and the cursor of the last page applied for it (null while it loads). */
  private key: K | null = null;
  private cursor: string | null = null;

  constructor(private readonly source: PagedListSource<K, T>) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getStatus = (): PagedListStatus => this.status;

  private update(patch: Partial<PagedListStatus>): void {
    this.status = { ...this.status, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** The one "still current" decision: an answer counts only for the newest load, in its company. */
  private isCurrent(request: number, key: K): boolean {
    return request === this.status.request && (this.source.holds?.(key) ?? true);
  }

  /**
   * The first page for `key`, replacing the rows; any load or page in flight is dropped when it answers.
   * Resolves to the error's message when it failed and was still the newest, else null. `quiet`: not a
   * user's request (a resync), so it shows no loading and a failure leaves what is on screen.
   */
  async load(key: K, { quiet = false }: { quiet?: boolean } = {}): Promise<string | null> {
    const request = this.status.request + 1;
    this.key = key;
    this.cursor = null;
    this.update({
      request,
      key: JSON.stringify(key),
      // A quiet load that overtakes a user's keeps their spinner until it answers for them.
      loading: quiet ? this.status.loading : true,
      loadingMore: false,
    });
    this.source.hold?.(key);
    try {
      await fetchAndApply(
        () => this.source.fetch(key, null),
        (page) => {
          if (!this.isCurrent(request, key)) return;
          this.cursor = page.nextCursor;
          this.source.setFirstPage(key, page);
          this.update({ hasMore: page.nextCursor !== null, error: null });
        },
        this.source.topic,
      );
      return null;
    } catch (cause) {
      if (quiet || !this.isCurrent(request, key)) return null;
      const message = getErrorMessage(cause);
      this.update({ error: message, errorOf: request });
      return message;
    } finally {
      if (request === this.status.request) this.update({ loading: false });
    }
  }

  /**
   * The next page of the newest load, after its rows; nothing while that load or another page is in
   * flight, or once the last page is in. Resolves to a failure's message (the rows stay), else null.
   */
  async loadMore(): Promise<string | null> {
    const { request } = this.status;
    const key = this.key;
    const cursor = this.cursor;
    if (key === null || cursor === null || this.status.loadingMore) return null;
    this.update({ loadingMore: true });
    try {
      await fetchAndApply(
        () => this.source.fetch(key, cursor),
        (page) => {
          if (!this.isCurrent(request, key)) return;
          this.cursor = page.nextCursor;
          this.source.appendPage?.(key, page);
          this.update({ hasMore: page.nextCursor !== null });
        },
      );
      return null;
    } catch (cause) {
      return this.isCurrent(request, key) ? getErrorMessage(cause) : null;
    } finally {
      if (request === this.status.request) this.update({ loadingMore: false });
    }
  }

  /**
   * After a reconnect that may have missed events: the newest load's key again (what is on screen, or
   * about to be), quietly. Nothing when the list was never loaded or its company is no longer held.
   */
  async refresh(): Promise<void> {
    const key = this.key;
    if (key === null || !(this.source.holds?.(key) ?? true)) return;
    await this.load(key, { quiet: true });
  }
}
