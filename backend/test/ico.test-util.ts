/** Test-only builders of .ico files (uploads of favicons). */

/** An .ico file around the given images (PNG bytes or bitmap DIBs), as Windows writes them. */
export function buildIco(images: Array<{ width: number; height: number; data: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map((image) => {
    const entry = Buffer.alloc(16);
    entry[0] = image.width >= 256 ? 0 : image.width;
    entry[1] = image.height >= 256 ? 0 : image.height;
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(image.data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += image.data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.data)]);
}

/** A bitmap DIB (BITMAPINFOHEADER, bottom-up rows, then the 1-bit AND mask). */
export function buildDib(options: {
  width: number;
  height: number;
  bpp: 1 | 4 | 8 | 24 | 32;
  /** Top-down pixels: palette indexes (bpp ≤ 8) or [r, g, b, a]. */
  pixel: (x: number, y: number) => number | [number, number, number, number];
  palette?: Array<[number, number, number]>;
  /** Top-down: true where the mask says transparent. */
  transparent?: (x: number, y: number) => boolean;
}): Buffer {
  const { width, height, bpp } = options;
  const palette = options.palette ?? [];
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(bpp, 14);
  header.writeUInt32LE(palette.length, 32);
  const paletteBytes = Buffer.concat(palette.map(([r, g, b]) => Buffer.from([b, g, r, 0])));
  const rowSize = Math.floor((bpp * width + 31) / 32) * 4;
  const pixels = Buffer.alloc(rowSize * height);
  const maskRowSize = Math.floor((width + 31) / 32) * 4;
  const mask = Buffer.alloc(maskRowSize * height);
  for (let y = 0; y < height; y++) {
    const row = (height - 1 - y) * rowSize;
    const maskRow = (height - 1 - y) * maskRowSize;
    for (let x = 0; x < width; x++) {
      const value = options.pixel(x, y);
      if (typeof value === 'number') {
        const bit = x * bpp;
        pixels[row + (bit >> 3)] |= value << (8 - bpp - (bit & 7));
      } else {
        const p = row + x * (bpp / 8);
        pixels[p] = value[2];
        pixels[p + 1] = value[1];
        pixels[p + 2] = value[0];
        if (bpp === 32) pixels[p + 3] = value[3];
      }
      if (options.transparent?.(x, y)) mask[maskRow + (x >> 3)] |= 1 << (7 - (x & 7));
    }
  }
  return Buffer.concat([header, paletteBytes, pixels, mask]);
}
