import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { AttachmentStore } from './attachment-store';

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
 * Attachments' bytes in an S3-compatible bucket: uploads stream through lib-storage's multipart Upload
 * (a few 5 MB parts in memory at most), reads stream the object's body.
 */
export class S3AttachmentStore implements AttachmentStore {
  readonly kind = 's3' as const;

  private constructor(
    private readonly client: S3Client,
    private readonly sdk: typeof import('@aws-sdk/client-s3'),
    private readonly storage: typeof import('@aws-sdk/lib-storage'),
    private readonly location: S3Location,
  ) {}

  /** The SDK is loaded only when S3 is configured: it is large, and most installations do not need it. */
  static async open(location: S3Location): Promise<S3AttachmentStore> {
    const sdk = await import('@aws-sdk/client-s3');
    const storage = await import('@aws-sdk/lib-storage');
    const client = new sdk.S3Client({
      endpoint: location.endpoint,
      region: location.region,
      forcePathStyle: location.forcePathStyle,
      credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
    });
    return new S3AttachmentStore(client, sdk, storage, location);
  }

  private key(fileId: string): string {
    return `${this.location.prefix}${fileId}`;
  }

  async write(fileId: string, body: AsyncIterable<Buffer>): Promise<number> {
    let total = 0;
    const counted = Readable.from(
      (async function* () {
        for await (const piece of body) {
          total += piece.length;
          yield piece;
        }
      })(),
    );
    await new this.storage.Upload({
      client: this.client,
      params: { Bucket: this.location.bucket, Key: this.key(fileId), Body: counted },
      queueSize: 2,
    }).done();
    return total;
  }

  async read(fileId: string): Promise<Readable> {
    const object = await this.client.send(
      new this.sdk.GetObjectCommand({ Bucket: this.location.bucket, Key: this.key(fileId) }),
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
