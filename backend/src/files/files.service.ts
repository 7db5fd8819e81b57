import { Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { NotFoundError, PayloadTooLargeError, ValidationFailedError } from '../common/domain-errors';
import { FilesRepository } from './files.repository';
import type { Tx } from '../database/database';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const INVALID_IMAGE_MESSAGE = 'Invalid file type: Please upload an image file.';
export const FILE_NOT_FOUND = 'File not found';
export const IMAGE_TOO_LARGE_MESSAGE = 'File too large: Please upload an image smaller than 5MB.';

/** Formats we can decode; everything is re-encoded to WebP so no uploaded byte is served as-is. */
const DECODABLE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/tiff']);
const AVATAR_EDGE = 512;

@Injectable()
export class FilesService {
  constructor(private readonly files: FilesRepository) {}

  /** Checks the bytes (not the name or the browser's type), then re-encodes them. */
  async reencodeImage(data: Buffer): Promise<Buffer> {
    if (data.length > MAX_IMAGE_BYTES) throw new PayloadTooLargeError(IMAGE_TOO_LARGE_MESSAGE);
    const { fileTypeFromBuffer } = await import('file-type');
    const detected = await fileTypeFromBuffer(data);
    if (!detected || !DECODABLE.has(detected.mime)) throw new ValidationFailedError(INVALID_IMAGE_MESSAGE);
    try {
      return await sharp(data, { limitInputPixels: 40_000_000, animated: false })
        .rotate()
        .resize(AVATAR_EDGE, AVATAR_EDGE, { fit: 'cover', withoutEnlargement: true })
        .webp({ quality: 85 })
        .toBuffer();
    } catch {
      throw new ValidationFailedError(INVALID_IMAGE_MESSAGE);
    }
  }

  /**
   * An attached image re-encoded in its own format (GIF and WebP keep their frames), at its own size:
   * EXIF orientation applied, every metadata block (location, camera) dropped, so none of the uploaded
   * bytes are served as they came. Null when sharp cannot decode it.
   */
  async reencodeAttachedImage(
    data: Buffer,
    mimeType: string,
  ): Promise<{ data: Buffer; width: number; height: number } | null> {
    const animated = mimeType === 'image/gif' || mimeType === 'image/webp';
    try {
      const image = sharp(data, { limitInputPixels: 100_000_000, animated }).rotate();
      const encoded =
        mimeType === 'image/png'
          ? image.png()
          : mimeType === 'image/jpeg'
            ? image.jpeg({ quality: 90 })
            : mimeType === 'image/gif'
              ? image.gif()
              : image.webp({ quality: 90 });
      const { data: out, info } = await encoded.toBuffer({ resolveWithObject: true });
      // An animation's height is the frames' stacked height: one frame's is what a thumbnail needs.
      const height = info.pageHeight ?? info.height;
      return { data: out, width: info.width, height };
    } catch {
      return null;
    }
  }

  /** Stores bytes that reencodeImage (WebP) or another re-encoder of ours (`contentType`) produced. */
  async storeEncoded(
    ownerId: string,
    encoded: Buffer,
    purpose: string,
    tx?: Tx,
    contentType: 'image/webp' | 'image/png' = 'image/webp',
  ): Promise<string> {
    return this.files.insert({ ownerId, purpose, contentType, size: encoded.length, data: encoded }, tx);
  }

  async read(id: string): Promise<{ contentType: string; data: Buffer }> {
    const file = await this.files.findWithData(id);
    if (!file?.data) throw new NotFoundError(FILE_NOT_FOUND);
    return { contentType: file.contentType, data: file.data };
  }

  async remove(id: string, tx?: Tx): Promise<void> {
    await this.files.remove(id, tx);
  }
}

export function fileUrl(id: string | null, fallback = '/placeholder.svg'): string {
  return id ? `/api/files/${id}` : fallback;
}
