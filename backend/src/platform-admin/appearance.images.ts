import sharp from 'sharp';
import { PayloadTooLargeError, ValidationFailedError } from '../common/domain-errors';
import { IMAGE_TOO_LARGE_MESSAGE, MAX_IMAGE_BYTES } from '../files/files.service';

export const INVALID_LOGO_MESSAGE = 'Invalid file type: Please upload a PNG, JPEG, WebP or GIF image.';
export const INVALID_FAVICON_MESSAGE = 'Invalid file type: Please upload an .ico or .png file.';

/** Logos are shown at most 150×50 (the spec's recommendation) on high-density screens: 4× is plenty. */
const LOGO_BOX = { width: 600, height: 200 };
const FAVICON_EDGE = 128;
const PIXEL_LIMIT = 40_000_000;

const LOGO_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
const ICO_TYPES = new Set(['image/x-icon', 'image/vnd.microsoft.icon']);

async function sniff(data: Buffer): Promise<string | undefined> {
  if (data.length > MAX_IMAGE_BYTES) throw new PayloadTooLargeError(IMAGE_TOO_LARGE_MESSAGE);
  const { fileTypeFromBuffer } = await import('file-type');
  return (await fileTypeFromBuffer(data))?.mime;
}

/**
 * A logo upload, checked by its bytes (never its name or the browser's type) and re-encoded to PNG, so
 * no uploaded byte is served as-is. SVG is refused: it can carry script.
 */
export async function encodeLogo(data: Buffer): Promise<Buffer> {
  const mime = await sniff(data);
  if (!mime || !LOGO_TYPES.has(mime)) throw new ValidationFailedError(INVALID_LOGO_MESSAGE);
  try {
    return await sharp(data, { limitInputPixels: PIXEL_LIMIT, animated: false })
      .rotate()
      .resize(LOGO_BOX.width, LOGO_BOX.height, { fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch {
    throw new ValidationFailedError(INVALID_LOGO_MESSAGE);
  }
}

/** A favicon upload (.ico or .png, by its bytes), re-encoded to a PNG of at most 128 px a side. */
export async function encodeFavicon(data: Buffer): Promise<Buffer> {
  const mime = await sniff(data);
  let input: sharp.Sharp;
  try {
    if (mime === 'image/png') {
      input = sharp(data, { limitInputPixels: PIXEL_LIMIT, animated: false });
    } else if (mime && ICO_TYPES.has(mime)) {
      const image = largestIcoImage(data);
      input =
        image.kind === 'png'
          ? sharp(image.png, { limitInputPixels: PIXEL_LIMIT })
          : sharp(image.rgba, { raw: { width: image.width, height: image.height, channels: 4 } });
    } else {
      throw new ValidationFailedError(INVALID_FAVICON_MESSAGE);
    }
    return await input
      .resize(FAVICON_EDGE, FAVICON_EDGE, { fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch {
    throw new ValidationFailedError(INVALID_FAVICON_MESSAGE);
  }
}

export type IcoImage =
  { kind: 'png'; width: number; png: Buffer } | { kind: 'rgba'; width: number; height: number; rgba: Buffer };

/** ICO entries are at most 256×256; a directory longer than this is not a favicon. */
const MAX_ICO_ENTRIES = 64;
const MAX_ICO_EDGE = 256;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

class IcoError extends Error {}

/**
 * The largest image of an .ico file: an embedded PNG as it is (sharp decodes it, within its pixel
 * limit), or a bitmap (1, 4, 8, 24 or 32 bits, uncompressed) decoded to RGBA here. Every size and
 * offset is checked against the file before it is read, so a crafted header cannot make us allocate
 * more than 256×256 pixels. Throws on anything else.
 */
export function largestIcoImage(file: Buffer): IcoImage {
  if (file.length < 6 || file.readUInt16LE(0) !== 0 || file.readUInt16LE(2) !== 1)
    throw new IcoError('not an icon');
  const count = file.readUInt16LE(4);
  if (count === 0 || count > MAX_ICO_ENTRIES || file.length < 6 + 16 * count)
    throw new IcoError('bad directory');
  let best: { offset: number; size: number; width: number } | null = null;
  for (let i = 0; i < count; i++) {
    const entry = 6 + 16 * i;
    const width = file[entry] || 256;
    const size = file.readUInt32LE(entry + 8);
    const offset = file.readUInt32LE(entry + 12);
    if (size === 0 || offset + size > file.length) continue;
    if (!best || width > best.width) best = { offset, size, width };
  }
  if (!best) throw new IcoError('no image');
  const data = file.subarray(best.offset, best.offset + best.size);
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG_SIGNATURE))
    return { kind: 'png', width: best.width, png: Buffer.from(data) };
  return decodeIcoBitmap(data);
}

function decodeIcoBitmap(dib: Buffer): IcoImage {
  if (dib.length < 40) throw new IcoError('short header');
  const headerSize = dib.readUInt32LE(0);
  const width = dib.readInt32LE(4);
  // The height covers the colour bitmap and the transparency mask below it.
  const height = dib.readInt32LE(8) / 2;
  const bpp = dib.readUInt16LE(14);
  const compression = dib.readUInt32LE(16);
  const colorsUsed = dib.readUInt32LE(32);
  if (headerSize < 40 || headerSize > dib.length) throw new IcoError('bad header');
  if (!Number.isInteger(height) || width < 1 || height < 1 || width > MAX_ICO_EDGE || height > MAX_ICO_EDGE)
    throw new IcoError('bad size');
  if (compression !== 0 || ![1, 4, 8, 24, 32].includes(bpp)) throw new IcoError('unsupported bitmap');

  const paletteSize = bpp <= 8 ? colorsUsed || 1 << bpp : 0;
  if (paletteSize > 1 << bpp) throw new IcoError('bad palette');
  const paletteStart = headerSize;
  const pixelStart = paletteStart + paletteSize * 4;
  const rowSize = Math.floor((bpp * width + 31) / 32) * 4;
  const maskRowSize = Math.floor((width + 31) / 32) * 4;
  const maskStart = pixelStart + rowSize * height;
  const hasMask = maskStart + maskRowSize * height <= dib.length;
  if (maskStart > dib.length) throw new IcoError('truncated bitmap');

  const rgba = Buffer.alloc(width * height * 4);
  let anyAlpha = false;
  for (let y = 0; y < height; y++) {
    // Rows are stored bottom-up.
    const row = pixelStart + (height - 1 - y) * rowSize;
    for (let x = 0; x < width; x++) {
      const out = (y * width + x) * 4;
      let b: number, g: number, r: number;
      let a = 255;
      if (bpp === 32 || bpp === 24) {
        const p = row + x * (bpp / 8);
        [b, g, r] = [dib[p], dib[p + 1], dib[p + 2]];
        if (bpp === 32) {
          a = dib[p + 3];
          if (a !== 0) anyAlpha = true;
        }
      } else {
        const bit = x * bpp;
        const byte = dib[row + (bit >> 3)];
        const index = (byte >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        if (index >= paletteSize) throw new IcoError('bad palette index');
        const p = paletteStart + index * 4;
        [b, g, r] = [dib[p], dib[p + 1], dib[p + 2]];
      }
      rgba[out] = r;
      rgba[out + 1] = g;
      rgba[out + 2] = b;
      rgba[out + 3] = a;
    }
  }
  // A 32-bit image with an alpha channel ignores the mask; every other one takes transparency from it.
  if (hasMask && !(bpp === 32 && anyAlpha)) {
    for (let y = 0; y < height; y++) {
      const row = maskStart + (height - 1 - y) * maskRowSize;
      for (let x = 0; x < width; x++) {
        const transparent = (dib[row + (x >> 3)] >> (7 - (x & 7))) & 1;
        rgba[(y * width + x) * 4 + 3] = transparent ? 0 : 255;
      }
    }
  }
  return { kind: 'rgba', width, height, rgba };
}
