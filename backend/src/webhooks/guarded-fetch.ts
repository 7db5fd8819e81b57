import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { checkWebhookUrl, guardedLookup } from './ssrf-guard';

/** Why a file an agent linked to could not be fetched: a sentence for the log. */
export class GuardedFetchError extends Error {}

/**
 * GETs a URL an agent gave (a file in its reply) under the webhook's rules: the SSRF guard checks the
 * address connected to, no redirects, a timeout until the answer starts and between its chunks. The
 * body is returned as a stream; the caller caps its size as it reads.
 */
export function guardedGet(
  raw: string,
  options: { allowedHosts: ReadonlySet<string>; timeoutMs: number },
): Promise<Readable> {
  const problem = checkWebhookUrl(raw, options.allowedHosts);
  if (problem) return Promise.reject(new GuardedFetchError(problem));
  const url = new URL(raw);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<Readable>((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: 'GET',
        headers: { 'user-agent': 'Switchboard-Webhook/1', accept: '*/*' },
        lookup: guardedLookup(options.allowedHosts, port),
        timeout: options.timeoutMs,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          response.resume();
          reject(new GuardedFetchError(`the file's URL answered ${status}`));
          return;
        }
        // Between chunks too: a source that stalls mid-file ends the read.
        response.setTimeout(options.timeoutMs, () =>
          response.destroy(new GuardedFetchError('the file stopped arriving')),
        );
        resolve(response);
      },
    );
    request.on('timeout', () => request.destroy(new GuardedFetchError('the file did not arrive in time')));
    request.on('error', (error) =>
      reject(error instanceof GuardedFetchError ? error : new GuardedFetchError(error.message)),
    );
    request.end();
  });
}
