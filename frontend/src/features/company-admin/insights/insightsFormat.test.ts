import { describe, expect, it } from 'vitest';
import { formatPeriod } from './insightsFormat';

describe('formatPeriod', () => {
  it('shows a day as the UTC day it counts, wherever the viewer is', () => {
    const day = '2026-11-28T00:00:00.000Z';
    const expected = new Date(Date.UTC(2026, 10, 28, 12)).toLocaleDateString(undefined, {
      month: 'short',
      day: 'numeric',
    });
    expect(formatPeriod(day, 'day')).toBe(expected);
    expect(formatPeriod(day, 'day')).toContain('28');
  });

  it("shows an hour in the viewer's time zone", () => {
    const hour = '2026-11-28T03:00:00.000Z';
    const newYork = formatPeriod(hour, 'hour', 'America/New_York');
    const tokyo = formatPeriod(hour, 'hour', 'Asia/Tokyo');
    expect(newYork).toContain('27');
    expect(newYork).toMatch(/10|22/);
    expect(tokyo).toContain('28');
    expect(tokyo).toMatch(/12/);
  });
});
