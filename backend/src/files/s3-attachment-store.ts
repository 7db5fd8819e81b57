import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { DomainError } from '../common/domain-errors';
import type { AttachmentStore } from './attachment-store';

export const FILE_STORE_UNAVAILABLE =
  'The file store is temporarily unavailable. Please try again in a moment.';

/**
 * An S3 call's failure as the caller should see it: no answer from the server (refused, reset, timed
 * out) or a 5xx is the store being away, a 503 worth trying again; a 4xx (a bucket or key setting the
 * operator must fix) stays a server error.
 */
function asUnavailable(error: unknown): unknown {
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
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

  private constructor(
    private readonly client: S3Client,
    private readonly sdk: typeof import('@aws-sdk/client-s3'),
    private readonly location: S3Location,
  ) {}

  /** The SDK is loaded only when S3 is configured: it is large, and most installations do not need it. */
  static async open(location: S3Location): Promise<S3AttachmentStore> {
    const sdk = await import('@aws-sdk/client-s3');
    const client = new sdk.S3Client({
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
      if (uploadId !== undefined)
        await this.client
          .send(new this.sdk.AbortMultipartUploadCommand({ ...target, UploadId: uploadId }))
          .catch(() => undefined); // the bucket's lifecycle rules clean up what is left
      throw error;
    }
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

  destroy(): void {
    this.client.destroy();
  }
}
