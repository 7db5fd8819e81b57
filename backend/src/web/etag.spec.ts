import etag from 'etag';
import { runInRequestContext } from '../logging/request-context';
import { weakEtagForReads } from './etag';

describe('weakEtagForReads', () => {
  const body = JSON.stringify({ id: 'm-1', content: 'héllo' });
  const expected = etag(Buffer.from(body, 'utf8'), { weak: true });

  it("is Express's weak ETag of the bytes sent, for a GET or HEAD and outside any request", () => {
    expect(expected).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]+"$/);
    expect(weakEtagForReads(body, 'utf8')).toBe(expected);
    expect(weakEtagForReads(Buffer.from(body))).toBe(expected);
    for (const revalidatable of [true, undefined])
      runInRequestContext({ revalidatable }, () => expect(weakEtagForReads(body, 'utf8')).toBe(expected));
  });

  it('is not computed for an answer no conditional request can revalidate (a POST, PATCH...)', () => {
    runInRequestContext({ revalidatable: false }, () =>
      expect(weakEtagForReads(body, 'utf8')).toBeUndefined(),
    );
  });
});
