import { ADDRESS_REFUSED, checkWebhookUrl, hostKey } from './ssrf-guard';

describe('checkWebhookUrl', () => {
  const none = new Set<string>();

  it('lets a public https address through', () => {
    expect(checkWebhookUrl('https://n8n.example.com/webhook/x', none)).toBeNull();
  });

  it.each(['http://localhost:5678/x', 'http://127.0.0.1/x', 'http://metadata.google.internal/x'])(
    'refuses %s',
    (url) => {
      expect(checkWebhookUrl(url, none)).toBe(ADDRESS_REFUSED);
    },
  );

  // Issue 6 finding 9: a trailing dot names the same host, and passed the save check.
  it.each([
    'http://localhost./x',
    'http://localhost..:5678/x',
    'http://metadata.google.internal./computeMetadata/v1',
    'http://printer.local./x',
    'http://app.localhost./x',
  ])('issue 6 finding 9: refuses %s, a local name with a trailing dot', (url) => {
    expect(checkWebhookUrl(url, none)).toBe(ADDRESS_REFUSED);
  });

  it('treats an allowed host with a trailing dot as the same host', () => {
    expect(hostKey('LocalHost.', 5678)).toBe('localhost:5678');
    expect(checkWebhookUrl('http://localhost.:5678/x', new Set(['localhost:5678']))).toBeNull();
  });
});
