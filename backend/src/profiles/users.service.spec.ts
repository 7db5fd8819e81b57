import { normalizeEmail, splitFullName } from './users.service';

describe('splitFullName', () => {
  it.each([
    ['Ada Lovelace', 'Ada', 'Lovelace'],
    ['  Ada   King  Lovelace ', 'Ada', 'King Lovelace'],
    ['Cher', 'Cher', ''],
    ['', '', ''],
  ])('%j → first %j, last %j', (full, first, last) => {
    expect(splitFullName(full)).toEqual({ firstName: first, lastName: last });
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });
});
