import { describe, expect, it } from 'vitest';
import { messageLimitProblem } from './QuotasForm';

describe('messageLimitProblem', () => {
  it('takes empty (no limit) and whole numbers from 1, and names the field otherwise', () => {
    expect(messageLimitProblem(null, 'Messages per user per day')).toBeNull();
    expect(messageLimitProblem(1, 'Messages per user per day')).toBeNull();
    expect(messageLimitProblem(5000, 'Messages per company per month')).toBeNull();
    expect(messageLimitProblem(0, 'Messages per user per day')).toBe(
      'Messages per user per day must be at least 1 (leave it empty for no limit).',
    );
    expect(messageLimitProblem(2.5, 'Messages per company per month')).toBe(
      'Messages per company per month must be a whole number.',
    );
    expect(messageLimitProblem(2e9, 'Messages per user per day')).toMatch(/can be at most/);
  });
});
