import { IMAGE_MAX_PIXELS, IMAGE_MAX_SIDE_PX, IMAGE_THUMBNAIL_SIDE_PX, serverMessages } from '@furniture/contract';
import { HttpError, badRequest } from '../http/errors.ts';
import { detectImageType, type ImageType } from './image-types.ts';

export interface EncodedImage {
  data: Buffer;
  width: number;
  height: number;
}

export interface ProcessedImage {
  source: ImageType;
  full: EncodedImage;
  thumbnail: EncodedImage;
}

const WEBP = { quality: 80, effort: 4 } as const;

/** sharp names AVIF 'heif' (its container); any other HEIF, such as HEIC, is not accepted. */
const sharpFormatOf: Record<ImageType, string> = { jpeg: 'jpeg', png: 'png', webp: 'webp', avif: 'heif' };

export const unreadableImage = () =>
  badRequest(serverMessages.images.damaged);

export const unsupportedImage = () =>
  badRequest(serverMessages.images.notAnImage);

/**
 * Turns an upload into what is stored: a WebP of at most IMAGE_MAX_SIDE_PX on its long side and
 * a thumbnail, turned upright from the EXIF orientation and without any metadata (no camera
 * details, no GPS position). The pixel count is checked from the header before anything is
 * decoded, so a small file that would unpack into a huge image costs nothing.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  const source = detectImageType(input);
  if (!source) throw unsupportedImage();
  // Loaded at the first upload: libvips is a large share of an idle server's memory.
  const { default: sharp } = await import('sharp');
  // One libvips thread per image (image-work.ts bounds the images at once), and no cache of
  // decoded operations: every upload is new, and the cache held tens of megabytes for nothing.
  sharp.concurrency(1);
  sharp.cache(false);

  const metadata = await sharp(input, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw unreadableImage();
    });
  if (metadata.format !== sharpFormatOf[source] || (source === 'avif' && metadata.compression !== 'av1')) {
    throw unsupportedImage();
  }
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (!pixels) throw unreadableImage();
  if (pixels > IMAGE_MAX_PIXELS) {
    const megapixels = Math.round(pixels / 1_000_000);
    throw new HttpError(
      413,
      serverMessages.images.tooManyPixels(megapixels),
    );
  }

  try {
    // failOn 'truncated' refuses a file cut short instead of storing a half-grey picture.
    const full = await sharp(input, { failOn: 'truncated', limitInputPixels: IMAGE_MAX_PIXELS })
      .autoOrient()
      .resize({ width: IMAGE_MAX_SIDE_PX, height: IMAGE_MAX_SIDE_PX, fit: 'inside', withoutEnlargement: true })
      .webp(WEBP)
      .toBuffer({ resolveWithObject: true });
    const thumbnail = await sharp(full.data)
      .resize({ width: IMAGE_THUMBNAIL_SIDE_PX, height: IMAGE_THUMBNAIL_SIDE_PX, fit: 'inside', withoutEnlargement: true })
      .webp(WEBP)
      .toBuffer({ resolveWithObject: true });
    return {
      source,
      full: { data: full.data, width: full.info.width, height: full.info.height },
      thumbnail: { data: thumbnail.data, width: thumbnail.info.width, height: thumbnail.info.height },
    };
  } catch {
    throw unreadableImage();
  }
}
