import { HIDDEN, redactJobData } from './job-data-redaction';

describe('redactJobData', () => {
  it('hides mail bodies, password hashes and tokens, and keeps what identifies the job', () => {
    expect(
      redactJobData({ to: 'a@example.com', subject: 'Reset', text: 'link?token=x', html: '<a>x</a>' }),
    ).toEqual({ to: 'a@example.com', subject: 'Reset', text: HIDDEN, html: HIDDEN });
    expect(
      redactJobData({ email: 'a@example.com', passwordHash: '$argon2id$...', firstName: 'Ada' }),
    ).toEqual({ email: 'a@example.com', passwordHash: HIDDEN, firstName: 'Ada' });
    expect(redactJobData({ messageId: 'm-1', requestId: 'r-1' })).toEqual({
      messageId: 'm-1',
      requestId: 'r-1',
    });
    expect(redactJobData({ nested: [{ resetToken: 't', kind: 'password-reset' }] })).toEqual({
      nested: [{ resetToken: HIDDEN, kind: 'password-reset' }],
    });
    expect(redactJobData(null)).toBeNull();
    expect(redactJobData('plain')).toBe('plain');
  });
});
