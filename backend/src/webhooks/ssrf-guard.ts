import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export const ADDRESS_REFUSED =
  'This webhook address points to a private or local network, which agents may not call. Ask an operator to allow it (WEBHOOK_ALLOWED_HOSTS).';

/** Ranges an outbound webhook may reach: the public internet only. */
const PUBLIC_RANGES = new Set(['unicast']);

export class AddressRefusedError extends Error {
  constructor(readonly address: string) {
    super(ADDRESS_REFUSED);
  }
}

/**
 * The IPv4 address an IPv6 address stands for, when it embeds one: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d, also written ::7f00:1; deprecated, but a stack may still reach the IPv4
 * host through it), NAT64's well-known prefix (64:ff9b::/96, which a DNS64 resolver answers for every
 * IPv4-only name) and 6to4 (2002:aabb:ccdd::/48). Such an address is judged by that IPv4 address.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  const ipv4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zero = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && (p[5] === 0xffff || p[5] === 0)) return ipv4(p[6], p[7]);
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6)) return ipv4(p[6], p[7]);
  if (p[0] === 0x2002) return ipv4(p[1], p[2]);
  return null;
}

/** True when an IP is on the public internet (not loopback, private, link-local, CGNAT, metadata...). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') parsed = embeddedIPv4(parsed as ipaddr.IPv6) ?? parsed;
  return PUBLIC_RANGES.has(parsed.range());
}

/** A host name as DNS means it: no IPv6 brackets, no trailing dot ('localhost.' is 'localhost'), lower case. */
function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
}

export function hostKey(hostname: string, port: number): string {
  const host = bareHost(hostname);
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * A `lookup` for http.request that checks every address it resolves, so the address checked is the
 * address connected to (no window for DNS rebinding). Allow-listed host:port pairs skip the check.
 */
export function guardedLookup(allowed: ReadonlySet<string>, port: number): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as unknown as LookupAddress[];
      if (!allowed.has(hostKey(hostname, port))) {
        const bad = list.find((a) => !isPublicAddress(a.address));
        if (bad) return callback(new AddressRefusedError(bad.address), '', 4);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * Checks a URL before any request: scheme, and for a literal IP host (which skips DNS) its range.
 * Returns a readable problem, or null when the URL may be called.
 */
export function checkWebhookUrl(raw: string, allowed: ReadonlySet<string>): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Please enter a valid webhook URL (http:// or https://)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'The webhook URL must start with http:// or https://';
  if (url.username || url.password) return 'The webhook URL must not contain a user name or password';
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = bareHost(url.hostname);
  if (allowed.has(hostKey(host, port))) return null;
  if (isIP(host)) return isPublicAddress(host) ? null : ADDRESS_REFUSED;
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.internal') ||
    host.endsWith('.local')
  )
    return ADDRESS_REFUSED;
  return null;
}
