import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_MAX_SIDE_PX, IMAGE_THUMBNAIL_SIDE_PX } from '@furniture/contract';
import { avifImage, jpegImage, noiseImage, pngImage, solidImage, webpImage } from '../../test/images.ts';
import { HttpError } from '../http/errors.ts';
import { processImage } from './image-pipeline.ts';
import { detectImageType } from './image-types.ts';

/** The tag numbers of IFD0 in an EXIF block (a TIFF structure after "Exif\0\0"). */
function exifTags(exif: Buffer): number[] {
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  const little = tiff.subarray(0, 2).toString('latin1') === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd0 = u32(4);
  return Array.from({ length: u16(ifd0) }, (_, i) => u16(ifd0 + 2 + i * 12));
}
const GPS_IFD_POINTER = 0x8825;

async function rejection(input: Buffer): Promise<HttpError> {
  const error = await processImage(input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('detectImageType', () => {
  it.each([
    ['jpeg', jpegImage],
    ['png', pngImage],
    ['webp', webpImage],
    ['avif', avifImage],
  ] as const)('recognises %s from its bytes', async (type, make) => {
    expect(detectImageType(await make(64, 48))).toBe(type);
  });

  it('recognises nothing else', async () => {
    expect(detectImageType(await solidImage(64, 48).gif().toBuffer())).toBeUndefined();
    expect(detectImageType(await solidImage(64, 48).tiff().toBuffer())).toBeUndefined();
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(detectImageType(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('processImage', () => {
  it.each([
    ['JPEG', jpegImage],
    ['PNG', pngImage],
    ['WebP', webpImage],
    ['AVIF', avifImage],
  ] as const)('re-encodes a %s to a WebP and a WebP thumbnail', async (_name, make) => {
    const result = await processImage(await make(1200, 800));
    for (const encoded of [result.full, result.thumbnail]) {
      const metadata = await sharp(encoded.data).metadata();
      expect(metadata.format).toBe('webp');
      expect([metadata.width, metadata.height]).toEqual([encoded.width, encoded.height]);
    }
    expect([result.full.width, result.full.height]).toEqual([1200, 800]);
    expect([result.thumbnail.width, result.thumbnail.height]).toEqual([400, 267]);
  });

  it('fits large images into 1600 px on the long side and never enlarges small ones', async () => {
    const landscape = await processImage(await jpegImage(4000, 3000));
    expect([landscape.full.width, landscape.full.height]).toEqual([IMAGE_MAX_SIDE_PX, 1200]);
    expect([landscape.thumbnail.width, landscape.thumbnail.height]).toEqual([IMAGE_THUMBNAIL_SIDE_PX, 300]);

    const portrait = await processImage(await pngImage(1000, 2400));
    expect([portrait.full.width, portrait.full.height]).toEqual([667, IMAGE_MAX_SIDE_PX]);

    const small = await processImage(await webpImage(300, 200));
    expect([small.full.width, small.full.height]).toEqual([300, 200]);
    expect([small.thumbnail.width, small.thumbnail.height]).toEqual([300, 200]);
  });

  it('strips EXIF, including the GPS position, and turns the picture upright first', async () => {
    const photo = await solidImage(1200, 800)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({
        IFD0: { Make: 'PhoneMaker', Model: 'Phone 1', Copyright: 'Someone' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '23/1 48/1 36/1', GPSLongitudeRef: 'E', GPSLongitude: '90/1 24/1 0/1' },
      })
      .toBuffer();
    const before = await sharp(photo).metadata();
    expect(before.orientation).toBe(6);
    expect(exifTags(before.exif!)).toContain(GPS_IFD_POINTER);
    expect(before.exif!.toString('latin1')).toContain('PhoneMaker');

    const result = await processImage(photo);
    for (const encoded of [result.full, result.thumbnail]) {
      const after = await sharp(encoded.data).metadata();
      expect(after.exif).toBeUndefined();
      expect(after.xmp).toBeUndefined();
      expect(after.iptc).toBeUndefined();
      expect(after.orientation).toBeUndefined();
      expect(encoded.data.toString('latin1')).not.toContain('PhoneMaker');
    }
    // Orientation 6 is a quarter turn: the stored image is portrait.
    expect([result.full.width, result.full.height]).toEqual([800, 1200]);
  });

  it('refuses a file that is not one of the accepted types, whatever its name', async () => {
    for (const input of [
      await solidImage(64, 48).gif().toBuffer(),
      await solidImage(64, 48).tiff().toBuffer(),
      Buffer.from('just some text, not a picture'),
    ]) {
      const error = await rejection(input);
      expect(error.statusCode).toBe(400);
      expect(error.message).toMatch(/not a JPEG, PNG, WebP or AVIF image/);
    }
  });

  it('refuses a file whose bytes begin like an image but are not one', async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);
    const error = await rejection(fake);
    expect(error.statusCode).toBe(400);
    expect(error.message).toMatch(/could not be read/);
  });

  it.each(['jpeg', 'png', 'webp', 'avif'] as const)('refuses a truncated %s', async (format) => {
    // Noise, so the cut falls inside the picture data and not in padding.
    const whole = await noiseImage(320, 240, 40)
      .toFormat(format)
      .toBuffer();
    const error = await rejection(whole.subarray(0, Math.floor(whole.length * 0.6)));
    expect(error.statusCode).toBe(400);
    expect(error.message).toMatch(/damaged or incomplete/);
  });

  it('refuses an image over 40 megapixels before decoding it', async () => {
    const huge = await solidImage(8000, 6000).png({ compressionLevel: 9 }).toBuffer();
    expect(huge.length).toBeLessThan(1024 * 1024);
    const error = await rejection(huge);
    expect(error.statusCode).toBe(413);
    expect(error.message).toBe('This image is 48 megapixels; the most accepted is 40 megapixels. Choose a smaller image.');
  });
});
