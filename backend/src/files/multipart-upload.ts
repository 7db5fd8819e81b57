import busboy from 'busboy';
import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { ValidationFailedError } from '../common/domain-errors';

export const NO_FILE = 'Please attach a file.';
const UNREADABLE_UPLOAD = 'The upload could not be read. Please try again.';

/**
 * Streams the first file of a multipart request to `handle` as it arrives (nothing is buffered here).
 * Busboy stops the file one byte past `maxBytes`, so `handle`, which counts, sees it is too large.
 * Whatever `handle` does not read is drained, so the answer is never cut off mid-upload.
 */
export function withUploadedFile<T>(
  req: Request,
  maxBytes: number,
  handle: (name: string, file: Readable) => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (!req.is('multipart/form-data')) {
      reject(new ValidationFailedError(NO_FILE));
      req.resume();
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: maxBytes + 1, fields: 10, fieldSize: 1024, parts: 20 },
        defParamCharset: 'utf8',
      });
    } catch {
      reject(new ValidationFailedError(UNREADABLE_UPLOAD));
      req.resume();
      return;
    }
    let started = false;
    parser.on('file', (_field, file, info) => {
      if (started) {
        file.resume();
        return;
      }
      started = true;
      handle(info.filename ?? 'file', file)
        .then(resolve, reject)
        .finally(() => file.resume());
    });
    parser.on('close', () => {
      if (!started) reject(new ValidationFailedError(NO_FILE));
    });
    parser.on('error', () => {
      reject(new ValidationFailedError(UNREADABLE_UPLOAD));
      req.unpipe(parser);
      req.resume();
    });
    req.pipe(parser);
  });
}
