import sharp from 'sharp';
import {
  encodeFavicon,
  encodeLogo,
  INVALID_FAVICON_MESSAGE,
  INVALID_LOGO_MESSAGE,
  largestIcoImage,
} from './appearance.images';
import { buildDib, buildIco } from '../../test/ico.test-util';

async function solidPng(width: number, height: number, color = { r: 200, g: 30, b: 60, alpha: 1 }) {
  return sharp({ create: { width, height, channels: 4, background: color } })
    .png()
    .toBuffer();
}

describe('logo and favicon uploads', () => {
  it('re-encodes a logo to a PNG that fits 600×200, keeping its proportions', async () => {
    const out = await encodeLogo(await solidPng(1200, 300));
    const meta = await sharp(out).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 600, 150]);
    const small = await sharp(await encodeLogo(await solidPng(150, 50))).metadata();
    expect([small.width, small.height]).toEqual([150, 50]);
  });

  it('refuses SVG, text and broken images as logos', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await expect(encodeLogo(svg)).rejects.toThrow(INVALID_LOGO_MESSAGE);
    await expect(encodeLogo(Buffer.from('hello'))).rejects.toThrow(INVALID_LOGO_MESSAGE);
    const png = await solidPng(10, 10);
    await expect(encodeLogo(png.subarray(0, 40))).rejects.toThrow(INVALID_LOGO_MESSAGE);
  });

  it('takes a PNG favicon and an .ico one, refuses JPEG', async () => {
    const fromPng = await sharp(await encodeFavicon(await solidPng(256, 256))).metadata();
    expect([fromPng.format, fromPng.width, fromPng.height]).toEqual(['png', 128, 128]);
    const ico = buildIco([{ width: 48, height: 48, data: await solidPng(48, 48) }]);
    const fromIco = await sharp(await encodeFavicon(ico)).metadata();
    expect([fromIco.format, fromIco.width]).toEqual(['png', 48]);
    const jpeg = await sharp(await solidPng(16, 16))
      .jpeg()
      .toBuffer();
    await expect(encodeFavicon(jpeg)).rejects.toThrow(INVALID_FAVICON_MESSAGE);
  });
});

describe('largestIcoImage', () => {
  it('picks the largest entry', async () => {
    const small = buildDib({ width: 16, height: 16, bpp: 32, pixel: () => [1, 2, 3, 255] });
    const large = await solidPng(64, 64);
    const image = largestIcoImage(
      buildIco([
        { width: 16, height: 16, data: small },
        { width: 64, height: 64, data: large },
      ]),
    );
    expect(image).toMatchObject({ kind: 'png', width: 64 });
  });

  it('decodes 32-bit bitmaps with their alpha channel, top row first', () => {
    const dib = buildDib({
      width: 2,
      height: 2,
      bpp: 32,
      pixel: (x, y) => (y === 0 ? [255, 0, 0, 255] : [0, 0, 255, x === 0 ? 128 : 0]),
    });
    const image = largestIcoImage(buildIco([{ width: 2, height: 2, data: dib }]));
    expect(image.kind === 'rgba' && [...image.rgba]).toEqual([
      ...[255, 0, 0, 255, 255, 0, 0, 255],
      ...[0, 0, 255, 128, 0, 0, 255, 0],
    ]);
  });

  it('decodes 24-bit and paletted bitmaps, transparency from the mask', () => {
    const dib24 = buildDib({
      width: 3,
      height: 1,
      bpp: 24,
      pixel: (x) => [x * 10, 20, 30, 255],
      transparent: (x) => x === 1,
    });
    const image24 = largestIcoImage(buildIco([{ width: 3, height: 1, data: dib24 }]));
    expect(image24.kind === 'rgba' && [...image24.rgba]).toEqual([
      0, 20, 30, 255, 10, 20, 30, 0, 20, 20, 30, 255,
    ]);

    const palette: Array<[number, number, number]> = [
      [0, 0, 0],
      [255, 255, 255],
      [10, 200, 30],
    ];
    for (const bpp of [4, 8] as const) {
      const dib = buildDib({ width: 3, height: 2, bpp, palette, pixel: (x, y) => (x + y) % 3 });
      const image = largestIcoImage(buildIco([{ width: 3, height: 2, data: dib }]));
      expect(image.kind === 'rgba' && [...image.rgba.subarray(0, 12)]).toEqual([
        ...[0, 0, 0, 255],
        ...[255, 255, 255, 255],
        ...[10, 200, 30, 255],
      ]);
    }
    const mono = buildDib({
      width: 9,
      height: 1,
      bpp: 1,
      palette: palette.slice(0, 2),
      pixel: (x) => (x === 8 ? 1 : 0),
    });
    const image1 = largestIcoImage(buildIco([{ width: 9, height: 1, data: mono }]));
    expect(image1.kind === 'rgba' && [...image1.rgba.subarray(28, 36)]).toEqual([
      0, 0, 0, 255, 255, 255, 255, 255,
    ]);
  });

  it('refuses crafted headers instead of allocating what they claim', () => {
    const huge = buildDib({ width: 1, height: 1, bpp: 32, pixel: () => [0, 0, 0, 255] });
    huge.writeInt32LE(30_000, 4);
    huge.writeInt32LE(60_000, 8);
    expect(() => largestIcoImage(buildIco([{ width: 0, height: 0, data: huge }]))).toThrow('bad size');
    const truncated = buildDib({ width: 16, height: 16, bpp: 32, pixel: () => [0, 0, 0, 255] }).subarray(
      0,
      100,
    );
    expect(() => largestIcoImage(buildIco([{ width: 16, height: 16, data: truncated }]))).toThrow(
      'truncated bitmap',
    );
    const compressed = buildDib({ width: 1, height: 1, bpp: 32, pixel: () => [0, 0, 0, 255] });
    compressed.writeUInt32LE(1, 16);
    expect(() => largestIcoImage(buildIco([{ width: 1, height: 1, data: compressed }]))).toThrow(
      'unsupported bitmap',
    );
    const badIndex = buildDib({ width: 1, height: 1, bpp: 8, palette: [[0, 0, 0]], pixel: () => 5 });
    expect(() => largestIcoImage(buildIco([{ width: 1, height: 1, data: badIndex }]))).toThrow(
      'bad palette index',
    );
    const directory = buildIco([{ width: 1, height: 1, data: Buffer.alloc(4) }]);
    directory.writeUInt32LE(1_000_000, 6 + 12);
    expect(() => largestIcoImage(directory)).toThrow('no image');
    expect(() => largestIcoImage(Buffer.from([0, 0, 2, 0, 1, 0]))).toThrow('not an icon');
  });
});
