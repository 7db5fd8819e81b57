import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { checkWebhookUrl, hostKey } from '../webhooks/ssrf-guard';

export const INVALID_DOMAIN = 'Please enter an email domain such as example.com (no wildcards, no @)';
export const INVALID_ISSUER = 'Please enter the issuer URL of your identity provider (https://...)';
export const ISSUER_NEEDS_HTTPS =
  'The issuer URL must start with https:// (http:// only for this machine or hosts an operator allowed)';
export const ISSUER_ADDRESS_REFUSED =
  'This issuer URL points to a private or local network. Ask an operator to allow it (WEBHOOK_ALLOWED_HOSTS).';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * An email domain as the app stores and compares it: trimmed, lower case, without a trailing dot, an
 * internationalised name in its punycode (A-label) form. Null when it is no plain host name: wildcards,
 * addresses, IP literals, ports, single labels ("localhost") are refused.
 */
export function normalizeDomain(raw: string): string | null {
  const value = raw.trim().toLowerCase().replace(/\.$/, '');
  if (!value || value.length > 253 || /[\s*@/:\\?#[\]]/.test(value)) return null;
  if (isIP(value)) return null;
  const ascii = domainToASCII(value);
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  // A top-level label of digits only would make it an IPv4 address in disguise.
  if (/^\d+$/.test(labels[labels.length - 1])) return null;
  return ascii;
}

/** The domain part of an address, normalised as `normalizeDomain` does; null for no address. */
export function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1) return null;
  return normalizeDomain(email.slice(at + 1));
}

function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || /^127\./.test(bare);
}

/**
 * An issuer URL an owner may save: https, or http only for a loopback host or a host:port in the allow
 * list (the one that lets webhooks reach private addresses); no credentials, query or fragment; and,
 * unless allow-listed, not a private or local address (the discovery fetch checks resolved addresses
 * again, through the SSRF guard's lookup). Returns the URL without a trailing slash, or a readable problem.
 */
export function checkIssuerUrl(
  raw: string,
  allowed: ReadonlySet<string>,
): { issuer: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { problem: INVALID_ISSUER };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: INVALID_ISSUER };
  if (url.username || url.password || url.search || url.hash) return { problem: INVALID_ISSUER };
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const listed = allowed.has(hostKey(url.hostname, port));
  if (url.protocol === 'http:' && !listed && !isLoopbackHost(url.hostname))
    return { problem: ISSUER_NEEDS_HTTPS };
  if (!listed && checkWebhookUrl(url.toString(), allowed) !== null)
    return { problem: ISSUER_ADDRESS_REFUSED };
  return { issuer: url.toString().replace(/\/+$/, '') };
}
