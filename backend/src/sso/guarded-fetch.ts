import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkWebhookUrl, guardedLookup } from '../webhooks/ssrf-guard';

/** Discovery documents and key sets are small; a provider answering more is not one we want. */
const MAX_BODY_BYTES = 512 * 1024;

interface FetchOptions {
  method: string;
  headers: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
}

function bodyOf(body: unknown): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new Error('unsupported request body');
}

function headersOf(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/**
 * The fetch openid-client uses for a company's provider (discovery, keys, token endpoint): every request
 * goes through the webhooks' SSRF guard, so an issuer (or the endpoints its discovery document names)
 * cannot reach private or local addresses unless an operator allowed that host (WEBHOOK_ALLOWED_HOSTS).
 * The address checked is the address connected to. Redirects are not followed (openid-client asks for
 * 'manual'), and bodies are capped.
 */
export function guardedFetch(
  allowed: ReadonlySet<string>,
  timeoutMs: number,
): (url: string, options: FetchOptions) => Promise<Response> {
  return (url, options) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const problem = checkWebhookUrl(target.toString(), allowed);
      if (problem) return reject(new Error(problem));
      const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(
        target,
        {
          method: options.method,
          headers: options.headers,
          lookup: guardedLookup(allowed, port),
          timeout: timeoutMs,
          signal: options.signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_BODY_BYTES) req.destroy(new Error('The identity provider answered too much'));
            else chunks.push(chunk);
          });
          res.on('error', reject);
          res.on('end', () => {
            const status = res.statusCode ?? 502;
            const empty = status === 204 || status === 304 || options.method === 'HEAD';
            resolve(
              new Response(empty ? null : Buffer.concat(chunks), { status, headers: headersOf(res.headers) }),
            );
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('The identity provider did not answer in time')));
      req.on('error', reject);
      req.end(bodyOf(options.body));
    });
}
