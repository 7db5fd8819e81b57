import etag from 'etag';
import { answerMayBeRevalidated } from '../logging/request-context';

/**
 * Express's default ETag (weak, a hash of the body), for GET and HEAD answers only: only those can be
 * revalidated (If-None-Match, 304). Express would hash every answer, a POST's 201 as well.
 */
export function weakEtagForReads(body: string | Buffer, encoding?: BufferEncoding): string | undefined {
  if (!answerMayBeRevalidated()) return undefined;
  return etag(Buffer.isBuffer(body) ? body : Buffer.from(body, encoding), { weak: true });
}
