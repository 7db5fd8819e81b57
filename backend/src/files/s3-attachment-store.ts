import { Logger } from '@nestjs/common';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { DomainError } from '../common/domain-errors';
import { untilAnswers } from '../common/until-answers';
import { isUuid } from '../common/uuid';
import type { AttachmentStore } from './attachment-store';

export const FILE_STORE_UNAVAILABLE =
  'The file store is temporarily unavailable. Please try again in a moment.';

/**
 * How long a cut multipart upload's abort is tried again while S3 does not answer; after that it is left
 * to the sweep below and the bucket's lifecycle rule.
 */
export const ABORT_RETRY_MS = 24 * 60 * 60 * 1000;
/** The longest wait between two tries of such an abort. */
const ABORT_RETRY_MAX_DELAY_MS = 60_000;
/**
 * The longest wait for S3's answer to a list or an abort: a connection that hangs must not stall the
 * retries, or a sweep that a shutdown waits for.
 */
const CALL_TIMEOUT_MS = 30_000;

/**
 * Every S3 request's limits: connecting, and silence on a connection once connected (an idle timer, not a
 * total: a large part on a slow link keeps going while bytes move). Without them an S3 server that accepts
 * connections and never answers held an upload's request, and its part in memory, forever.
 */
export interface S3Timeouts {
  connectMs: number;
  idleMs: number;
}
export const S3_TIMEOUTS: S3Timeouts = { connectMs: 5_000, idleMs: 30_000 };
/**
 * Incomplete multipart uploads under the prefix initiated longer ago than this are abandoned (their
 * process died or gave up on them): the sweep aborts them. Far longer than any upload takes, so an
 * upload in progress is never cut by it.
 */
export const ABANDONED_UPLOAD_MS = 6 * 60 * 60 * 1000;
/** Uploads one sweep looks at, at most (pages of 1,000): the rest wait for the next run. */
const SWEEP_MAX_PAGES = 10;

const statusOf = (error: unknown): number | undefined =>
  (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;

/**
 * S3 not answering: no answer at all (refused, reset, timed out) or a 5xx. A 501 (an S3-compatible server
 * without that operation) is an answer, and will not change by waiting.
 */
export function isS3Outage(error: unknown): boolean {
  if ((error as Error | null)?.name === 'AbortError') return false;
  const status = statusOf(error);
  return status === undefined || (status >= 500 && status !== 501);
}

/** The multipart upload is not there (any more): aborted already, by another node or an earlier try. */
function isNoSuchUpload(error: unknown): boolean {
  return (error as Error | null)?.name === 'NoSuchUpload';
}

/**
 * An S3 call's failure as the caller should see it: no answer from the server (refused, reset, timed
 * out) or a 5xx is the store being away, a 503 worth trying again; a 4xx (a bucket or key setting the
 * operator must fix) stays a server error.
 */
function asUnavailable(error: unknown): unknown {
  const status = statusOf(error);
  if (status === undefined || status >= 500)
    return new DomainError('SERVICE_UNAVAILABLE', FILE_STORE_UNAVAILABLE);
  return error;
}

/** Runs an S3 call, its failure told apart as above. */
function s3Call<T>(call: Promise<T>): Promise<T> {
  return call.catch((error: unknown) => {
    throw asUnavailable(error);
  });
}

/** What S3_URL names: `s3://KEY:SECRET@host:port/bucket?region=...&forcePathStyle=true&tls=false`. */
export interface S3Location {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Object keys start with this (default `attachments/`). */
  prefix: string;
}

/**
 * Parses S3_URL. The endpoint is `https://host:port` unless `tls=false`; a host of `s3.amazonaws.com`
 * style works too. Throws a sentence an operator can act on.
 */
export function parseS3Url(value: string): S3Location {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('S3_URL must look like s3://KEY:SECRET@host:port/bucket?region=us-east-1');
  }
  if (url.protocol !== 's3:') throw new Error('S3_URL must start with s3://');
  const bucket = url.pathname.replace(/^\/+|\/+$/g, '');
  if (!bucket || bucket.includes('/'))
    throw new Error('S3_URL must name one bucket: s3://KEY:SECRET@host/bucket');
  if (!url.username || !url.password)
    throw new Error('S3_URL must carry the access key and secret: s3://KEY:SECRET@host/bucket');
  const tls = url.searchParams.get('tls') !== 'false';
  return {
    endpoint: `${tls ? 'https' : 'http'}://${url.host}`,
    bucket,
    region: url.searchParams.get('region') || 'us-east-1',
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
    forcePathStyle: url.searchParams.get('forcePathStyle') === 'true',
    prefix: url.searchParams.get('prefix') ?? 'attachments/',
  };
}

/**
 * S3's smallest part but the last: a file under it is one PutObject, a larger one a multipart upload
 * in parts of at least this much (a part ends with the piece that reaches it).
 */
export const S3_PART_BYTES = 5 * 1024 * 1024;

/**
 * Attachments' bytes in an S3-compatible bucket. A write gathers a part's pieces as they arrive (never
 * joined: one part of an upload in memory at most) and sends them as a stream of known length, so no
 * copy of the part is made; reads stream the object's body.
 */
export class S3AttachmentStore implements AttachmentStore {
  readonly kind = 's3' as const;
  private readonly logger = new Logger('S3AttachmentStore');
  /** Aborted on shutdown: background aborts stop waiting (what they leave, the sweep removes later). */
  private readonly stopping = new AbortController();
  /** Aborts being tried again in the background now. */
  private readonly retrying = new Set<Promise<void>>();
  private warnedUnlistable = false;

  private constructor(
    private readonly client: S3Client,
    private readonly sdk: typeof import('@aws-sdk/client-s3'),
    private readonly location: S3Location,
  ) {}

  /** The SDK is loaded only when S3 is configured: it is large, and most installations do not need it. */
  static async open(location: S3Location, timeouts: S3Timeouts = S3_TIMEOUTS): Promise<S3AttachmentStore> {
    const sdk = await import('@aws-sdk/client-s3');
    const client = new sdk.S3Client({
      // The SDK tries a call 3 times, a timed-out one too (so a hung server costs a read 3 idle limits);
      // a streamed upload is not tried again.
      requestHandler: { connectionTimeout: timeouts.connectMs, socketTimeout: timeouts.idleMs },
      endpoint: location.endpoint,
      region: location.region,
      forcePathStyle: location.forcePathStyle,
      credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
      // Checksums only where S3 requires one (DeleteObjects): the SDK's default would send each part as
      // aws-chunked with a trailing checksum, which not every S3-compatible server reads.
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
    return new S3AttachmentStore(client, sdk, location);
  }

  private key(fileId: string): string {
    return `${this.location.prefix}${fileId}`;
  }

  async write(fileId: string, body: AsyncIterable<Buffer>): Promise<number> {
    const target = { Bucket: this.location.bucket, Key: this.key(fileId) };
    const asStream = (pieces: Buffer[]) => Readable.from(pieces, { objectMode: false });
    let part: Buffer[] = [];
    let partBytes = 0;
    let total = 0;
    let uploadId: string | undefined;
    const parts: Array<{ ETag?: string; PartNumber: number }> = [];
    const sendPart = async (): Promise<void> => {
      uploadId ??= (await s3Call(this.client.send(new this.sdk.CreateMultipartUploadCommand(target))))
        .UploadId;
      const PartNumber = parts.length + 1;
      const { ETag } = await s3Call(
        this.client.send(
          new this.sdk.UploadPartCommand({
            ...target,
            UploadId: uploadId,
            PartNumber,
            Body: asStream(part),
            ContentLength: partBytes,
          }),
        ),
      );
      parts.push({ ETag, PartNumber });
      part = [];
      partBytes = 0;
    };
    try {
      for await (const piece of body) {
        part.push(piece);
        partBytes += piece.length;
        total += piece.length;
        if (partBytes >= S3_PART_BYTES) await sendPart();
      }
      if (uploadId === undefined) {
        await s3Call(
          this.client.send(
            new this.sdk.PutObjectCommand({ ...target, Body: asStream(part), ContentLength: partBytes }),
          ),
        );
        return total;
      }
      if (partBytes > 0) await sendPart();
      await s3Call(
        this.client.send(
          new this.sdk.CompleteMultipartUploadCommand({
            ...target,
            UploadId: uploadId,
            MultipartUpload: { Parts: parts },
          }),
        ),
      );
      return total;
    } catch (error) {
      if (uploadId !== undefined) await this.abortCut(target.Key, uploadId);
      throw error;
    }
  }

  /**
   * Aborts a cut multipart upload, so its parts do not stay in the bucket (billed, in no listing). S3
   * away (most likely why the upload was cut): tried again in the background until it answers, for a day
   * at most; the caller's answer does not wait for that.
   */
  private async abortCut(key: string, uploadId: string): Promise<void> {
    try {
      await this.abortUpload(key, uploadId);
    } catch (error) {
      if (this.notAnswering(error)) this.abortInBackground(key, uploadId);
      else this.warnLeft(key, uploadId, error);
    }
  }

  private abortInBackground(key: string, uploadId: string): void {
    const retry = untilAnswers(() => this.abortUpload(key, uploadId), {
      isOutage: (error) => this.notAnswering(error),
      giveUpAfterMs: ABORT_RETRY_MS,
      maxDelayMs: ABORT_RETRY_MAX_DELAY_MS,
      signal: this.stopping.signal,
      onOutage: () =>
        this.logger.warn(
          `S3 is not answering: aborting the cut multipart upload ${uploadId} of ${key} again until it does`,
        ),
    })
      .then((outcome) =>
        this.logger.log(
          outcome === 'aborted'
            ? `Aborted the cut multipart upload ${uploadId} of ${key} now that S3 answers`
            : `The cut multipart upload ${uploadId} of ${key} was already gone`,
        ),
      )
      .catch((error: unknown) => this.warnLeft(key, uploadId, error))
      .finally(() => this.retrying.delete(retry));
    this.retrying.add(retry);
  }

  private warnLeft(key: string, uploadId: string, error: unknown): void {
    const why = this.stopping.signal.aborted ? 'shutting down' : `gave up: ${String(error)}`;
    this.logger.warn(
      `Could not abort the cut multipart upload ${uploadId} of ${key} (${why}); the sweep of abandoned uploads or the bucket's lifecycle rule removes it`,
    );
  }

  /** Aborts one multipart upload; one already gone (another node's sweep, an earlier try) is no error. */
  async abortUpload(key: string, uploadId: string): Promise<'aborted' | 'gone'> {
    try {
      await this.client.send(
        new this.sdk.AbortMultipartUploadCommand({
          Bucket: this.location.bucket,
          Key: key,
          UploadId: uploadId,
        }),
        { abortSignal: this.callSignal() },
      );
      return 'aborted';
    } catch (error) {
      if (isNoSuchUpload(error)) return 'gone';
      throw error;
    }
  }

  /** S3 away, or a call's own timeout (S3 hung); not the shutdown ending a call. */
  private notAnswering(error: unknown): boolean {
    if (this.stopping.signal.aborted) return false;
    const name = (error as Error | null)?.name;
    return isS3Outage(error) || name === 'TimeoutError' || name === 'AbortError';
  }

  /** Ends a call to S3 on shutdown, or when S3 takes too long to answer. */
  private callSignal(): AbortSignal {
    return AbortSignal.any([this.stopping.signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]);
  }

  /** Background aborts not finished yet (tests wait on them). */
  async settled(): Promise<void> {
    while (this.retrying.size) await Promise.allSettled([...this.retrying]);
  }

  /**
   * Aborts the incomplete multipart uploads under the prefix initiated before `olderThanMs` ago: those a
   * process could not abort before it stopped, or gave up on. Harmless on several nodes at once: an
   * upload another node aborted first counts as gone. Only this store's keys (the prefix and a file id)
   * are touched: the bucket may be shared. Null when the server cannot list incomplete uploads (some S3-compatible ones).
   */
  async abortAbandonedUploads(
    olderThanMs = ABANDONED_UPLOAD_MS,
  ): Promise<{ aborted: number; gone: number } | null> {
    const { bucket: Bucket, prefix } = this.location;
    const before = Date.now() - olderThanMs;
    const result = { aborted: 0, gone: 0 };
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    for (let page = 0; page < SWEEP_MAX_PAGES && !this.stopping.signal.aborted; page++) {
      let list;
      try {
        list = await this.client.send(
          new this.sdk.ListMultipartUploadsCommand({ Bucket, Prefix: prefix, KeyMarker, UploadIdMarker }),
          { abortSignal: this.callSignal() },
        );
      } catch (error) {
        if (statusOf(error) !== 501) throw error;
        if (!this.warnedUnlistable)
          this.logger.warn(
            `This S3 server cannot list incomplete multipart uploads (${String(error)}): only the bucket's lifecycle rule removes abandoned ones`,
          );
        this.warnedUnlistable = true;
        return null;
      }
      for (const upload of list.Uploads ?? []) {
        const { Key, UploadId, Initiated } = upload;
        // Only keys this store writes (the prefix, then a file id): the server was asked for the prefix,
        // but one that ignores it, or an empty prefix in a shared bucket, must not make us abort another
        // application's upload.
        if (!Key || !UploadId || !Initiated) continue;
        const ours = Key.startsWith(prefix) && isUuid(Key.slice(prefix.length));
        if (ours && Initiated.getTime() <= before) result[await this.abortUpload(Key, UploadId)]++;
      }
      if (!list.IsTruncated || !list.NextKeyMarker) break;
      KeyMarker = list.NextKeyMarker;
      UploadIdMarker = list.NextUploadIdMarker;
    }
    return result;
  }

  async read(fileId: string): Promise<Readable> {
    const object = await s3Call(
      this.client.send(
        new this.sdk.GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(fileId) }),
      ),
    );
    if (!(object.Body instanceof Readable)) throw new Error(`No body for attachment ${fileId}`);
    return object.Body;
  }

  async remove(fileIds: readonly string[]): Promise<void> {
    for (let i = 0; i < fileIds.length; i += 1000) {
      const batch = fileIds.slice(i, i + 1000);
      await this.client.send(
        new this.sdk.DeleteObjectsCommand({
          Bucket: this.location.bucket,
          Delete: { Objects: batch.map((id) => ({ Key: this.key(id) })), Quiet: true },
        }),
      );
    }
  }

  /**
   * Stops the background aborts at once (a shutdown does not wait for S3) and closes the client's
   * connections. Called by Nest on the app's shutdown.
   */
  onApplicationShutdown(): void {
    this.destroy();
  }

  destroy(): void {
    this.stopping.abort();
    this.client.destroy();
  }
}
