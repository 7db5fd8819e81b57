import { describe, expect, it } from 'vitest';
import { withQuery } from './query';

describe('withQuery', () => {
  it('keeps the given order and leaves absent values out', () => {
    expect(withQuery('/api/bootstrap', { companyId: 'c 1', chat: true })).toBe(
      '/api/bootstrap?companyId=c+1&chat=true',
    );
    expect(withQuery('/api/x', { search: '', cursor: null, limit: 50, archived: false, q: undefined })).toBe(
      '/api/x?limit=50',
    );
  });

  it('adds no question mark when nothing is left', () => {
    expect(withQuery('/api/admin/users', { search: undefined, limit: 0 })).toBe('/api/admin/users?limit=0');
    expect(withQuery('/api/admin/users', {})).toBe('/api/admin/users');
  });
});
