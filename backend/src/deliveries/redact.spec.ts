import { DELIVERY_BODY_MAX_CHARS } from '../contracts/deliveries';
import { REDACTED, redactHeaders, redactJson, redactText, truncateBody } from './redact';

describe('delivery body redaction', () => {
  it('redacts fields named like secrets at any depth, and the secrets in URLs', () => {
    const body = {
      message: 'hello',
      callbackUrl: 'https://sb.example/api/agent-callbacks/42',
      callbackToken: 'cbt_abc',
      nested: { password: 'hunter2', apiKey: 'k1', api_key: 'k2', clientSecret: 's', keep: 'me' },
      files: [{ url: 'https://sb.example/files/1?exp=9&sig=abcdef&name=a.png' }],
      login: 'https://user:pw@example.com/x',
    };
    const kept = JSON.parse(redactJson(body)) as typeof body;
    expect(kept.message).toBe('hello');
    expect(kept.callbackUrl).toBe(body.callbackUrl);
    expect(kept.callbackToken).toBe(REDACTED);
    expect(kept.nested).toEqual({
      password: REDACTED,
      apiKey: REDACTED,
      api_key: REDACTED,
      clientSecret: REDACTED,
      keep: 'me',
    });
    expect(kept.files[0].url).not.toContain('abcdef');
    expect(new URL(kept.files[0].url).searchParams.get('name')).toBe('a.png');
    expect(kept.login).not.toContain('pw@');
  });

  it('redacts the signature and authorization headers', () => {
    expect(
      redactHeaders({ 'webhook-id': 'm1', 'webhook-signature': 'v1,xyz', authorization: 'Bearer t' }),
    ).toEqual({ 'webhook-id': 'm1', 'webhook-signature': REDACTED, authorization: REDACTED });
  });

  it('redacts text answers: JSON field by field, secret-looking pairs and bearer tokens otherwise', () => {
    expect(JSON.parse(redactText('[{"output":"hi","token":"t"}]'))).toEqual([
      { output: 'hi', token: REDACTED },
    ]);
    const text = redactText('error: api_key=abc123 and Authorization: Bearer eyJhbGc.x.y, ok');
    expect(text).not.toContain('abc123');
    expect(text).not.toContain('eyJhbGc');
    expect(text).toContain('ok');
  });

  it('truncates long bodies, saying how much was left out', () => {
    const long = 'x'.repeat(DELIVERY_BODY_MAX_CHARS + 10);
    const kept = truncateBody(long);
    expect(kept.startsWith('x'.repeat(DELIVERY_BODY_MAX_CHARS))).toBe(true);
    expect(kept).toContain('10 more characters not kept');
    expect(redactText(long).length).toBeLessThan(DELIVERY_BODY_MAX_CHARS + 100);
  });
});
