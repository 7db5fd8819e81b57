import dns from 'node:dns';
import {
  ADDRESS_REFUSED,
  AddressRefusedError,
  checkWebhookUrl,
  guardedLookup,
  hostKey,
  isPublicAddress,
} from './ssrf-guard';

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

  // A trailing dot names the same host, and passed the save check.
  it.each([
    'http://localhost./x',
    'http://localhost..:5678/x',
    'http://metadata.google.internal./computeMetadata/v1',
    'http://printer.local./x',
    'http://app.localhost./x',
  ])('refuses %s, a local name with a trailing dot', (url) => {
    expect(checkWebhookUrl(url, none)).toBe(ADDRESS_REFUSED);
  });

  it('treats an allowed host with a trailing dot as the same host', () => {
    expect(hostKey('LocalHost.', 5678)).toBe('localhost:5678');
    expect(checkWebhookUrl('http://localhost.:5678/x', new Set(['localhost:5678']))).toBeNull();
  });
});

// IPv6 forms that embed an IPv4 address are judged by that IPv4 address.
describe('IPv6 addresses that embed an IPv4 address', () => {
  const none = new Set<string>();

  it.each([
    'http://[::127.0.0.1]/x', // IPv4-compatible (URL writes it [::7f00:1])
    'http://[::7f00:1]/x',
    'http://[::a00:1]/x', // ::10.0.0.1
    'http://[::a9fe:a9fe]/latest/meta-data', // ::169.254.169.254
    'http://[::ffff:127.0.0.1]/x', // IPv4-mapped
    'http://[::ffff:7f00:1]/x',
    'http://[::ffff:a9fe:a9fe]/x',
    'http://[64:ff9b::7f00:1]/x', // NAT64 of 127.0.0.1
    'http://[64:ff9b::10.1.2.3]/x',
    'http://[64:ff9b::c0a8:101]/x', // NAT64 of 192.168.1.1
    'http://[2002:7f00:1::1]/x', // 6to4 of 127.0.0.1
    'http://[2002:a00:1::]/x', // 6to4 of 10.0.0.1
    'http://[2002:a9fe:a9fe::1]/x', // 6to4 of 169.254.169.254
    'http://[::]/x',
    'http://[::1]/x',
  ])('refuses %s', (url) => {
    expect(checkWebhookUrl(url, none)).toBe(ADDRESS_REFUSED);
  });

  it.each(['::7f00:1', '::127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', '2002:c0a8:101::1', '::a00:1'])(
    'isPublicAddress(%s) is false',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );

  it.each(['::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1', '2606:4700:4700::1111', '8.8.8.8'])(
    'isPublicAddress(%s) is true: the embedded IPv4 address is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('lets an allow-listed IPv6 literal through', () => {
    expect(checkWebhookUrl('http://[::7f00:1]:5678/x', new Set(['[::7f00:1]:5678']))).toBeNull();
  });

  describe('at connect time (DNS answers)', () => {
    afterEach(() => jest.restoreAllMocks());

    /** guardedLookup with `answers` as what DNS resolves the name to. */
    function resolveWith(answers: { address: string; family: number }[], allowed = none, port = 80) {
      jest
        .spyOn(dns, 'lookup')
        .mockImplementation(((
          _host: string,
          _options: unknown,
          callback: (e: null, a: typeof answers) => void,
        ) => callback(null, answers)) as unknown as typeof dns.lookup);
      return new Promise<{ error: Error | null; address: string }>((resolve) =>
        guardedLookup(allowed, port)('hook.example.com', { family: 0 }, (error, address) =>
          resolve({ error, address: address as string }),
        ),
      );
    }

    it.each(['::7f00:1', '::ffff:7f00:1', '64:ff9b::a00:1', '2002:a00:1::1'])(
      'refuses a name that resolves to %s',
      async (address) => {
        const { error } = await resolveWith([{ address, family: 6 }]);
        expect(error).toBeInstanceOf(AddressRefusedError);
      },
    );

    it('connects to a name that resolves to a NAT64 address of a public IPv4 address', async () => {
      const { error, address } = await resolveWith([{ address: '64:ff9b::808:808', family: 6 }]);
      expect(error).toBeNull();
      expect(address).toBe('64:ff9b::808:808');
    });

    it('lets an allow-listed host:port through whatever it resolves to', async () => {
      const { error } = await resolveWith(
        [{ address: '::7f00:1', family: 6 }],
        new Set(['hook.example.com:5678']),
        5678,
      );
      expect(error).toBeNull();
    });
  });
});
