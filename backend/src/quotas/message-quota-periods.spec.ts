import { companyMonthlyQuotaReached, userDailyQuotaReached, utcDay, utcMonth } from './message-quota-periods';

describe('message quota periods (UTC)', () => {
  it('a day runs from 00:00 UTC to the next 00:00 UTC', () => {
    const day = utcDay(Date.parse('2026-11-28T23:59:59.999Z'));
    expect(day).toEqual({
      key: '2026-11-28',
      start: new Date('2026-11-28T00:00:00.000Z'),
      end: new Date('2026-11-29T00:00:00.000Z'),
    });
    expect(utcDay(Date.parse('2026-11-29T00:00:00.000Z')).key).toBe('2026-11-29');
  });

  it('a month runs from the 1st at 00:00 UTC, across a year end too', () => {
    expect(utcMonth(Date.parse('2026-12-31T23:59:59.999Z'))).toEqual({
      key: '2026-12',
      start: new Date('2026-12-01T00:00:00.000Z'),
      end: new Date('2027-01-01T00:00:00.000Z'),
    });
    expect(utcMonth(Date.parse('2028-02-29T12:00:00Z')).end).toEqual(new Date('2028-03-01T00:00:00Z'));
  });

  it('names the limit and when it resets', () => {
    expect(userDailyQuotaReached(100)).toBe(
      "You have reached your company's limit of 100 messages per user per day. It resets at 00:00 UTC.",
    );
    expect(userDailyQuotaReached(1)).toContain('limit of 1 message per user per day');
    expect(companyMonthlyQuotaReached(5000, new Date('2026-12-01T00:00:00Z'))).toBe(
      "You have reached your company's limit of 5000 messages per month. It resets on 1 December at 00:00 UTC.",
    );
    expect(companyMonthlyQuotaReached(10, new Date('2027-01-01T00:00:00Z'))).toContain('1 January');
  });
});
