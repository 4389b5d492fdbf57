import { PRODUCT_CARD_SIZES, responsiveImage } from '../lib/image-sources.ts';

/** A card's picture: 4:3, sized before it loads, fetched when near the screen, in the width the grid needs. */
export function CardImage({ url, alt }: { url: string; alt: string }) {
  return (
    <img
      {...responsiveImage(url, PRODUCT_CARD_SIZES)}
      alt={alt}
      width={400}
      height={300}
      loading="lazy"
      className="h-full w-full object-cover"
    />
  );
}
