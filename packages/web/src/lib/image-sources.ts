import { IMAGE_MAX_SIDE_PX, IMAGE_THUMBNAIL_SIDE_PX } from '@furniture/contract';

/**
 * An image the upload pipeline stored (`.../uploads/<uuid>.webp`). Beside it lies its thumbnail,
 * `<uuid>.thumb.webp`, at most IMAGE_THUMBNAIL_SIDE_PX on the long side; the image itself is at most
 * IMAGE_MAX_SIDE_PX. Any other address (the demo's SVGs, an image hosted elsewhere) has one size.
 */
const UPLOADED_IMAGE = /\/uploads\/[A-Za-z0-9-]+\.webp$/;

/** The thumbnail of an uploaded image, for pictures shown small; any other image as it is. */
export function thumbnailOf(url: string): string {
  return UPLOADED_IMAGE.test(url) ? url.replace(/\.webp$/, '.thumb.webp') : url;
}

/**
 * The attributes that let the browser choose between an uploaded image's widths for the room the
 * picture takes (`sizes`, as in HTML); for any other image, only its address.
 */
export function responsiveImage(url: string, sizes: string): { src: string; srcSet?: string; sizes?: string } {
  if (!UPLOADED_IMAGE.test(url)) return { src: url };
  return { src: url, srcSet: `${thumbnailOf(url)} ${IMAGE_THUMBNAIL_SIDE_PX}w, ${url} ${IMAGE_MAX_SIDE_PX}w`, sizes };
}

/** The room a card's picture takes: one column of the product or category grid. */
export const PRODUCT_CARD_SIZES = '(min-width: 1024px) 400px, (min-width: 768px) 50vw, 100vw';
