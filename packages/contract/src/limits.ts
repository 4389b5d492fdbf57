/** Business constants of section 9 of the specification. */
export const PASSWORD_MIN_LENGTH = 6;
export const ACCESS_TOKEN_MAX_AGE_SECONDS = 300;
export const TOKEN_STORAGE_KEY = 'furnitureBea-token';
/** Where a device keeps the location its person chose (decision 47). */
export const LOCATION_STORAGE_KEY = 'furniture.location';
export const MAX_PAGE_WIDTH_PX = 1440;
export const OIDC_POPUP = { width: 500, height: 600 } as const;

export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 100;

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Uploads over this many pixels are refused before they are decoded. */
export const IMAGE_MAX_PIXELS = 40_000_000;
/** Stored images are at most this long on their long side; thumbnails are THUMBNAIL long. */
export const IMAGE_MAX_SIDE_PX = 1600;
export const IMAGE_THUMBNAIL_SIDE_PX = 400;
/** Upload types accepted (decided from the file's bytes), as MIME types for a file input's accept. */
export const IMAGE_ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;

/** A product may show up to this many photos; the first is its productImage. */
export const PRODUCT_PHOTOS_MAX = 8;
/** The largest measurement (cm) a listing or a search may state. */
export const MEASUREMENT_MAX_CM = 2_000;

/** The largest price (US dollars) a listing may ask, or a search may name. */
export const PRICE_MAX = 10_000_000;
/** The smallest price: one cent. Prices have at most two decimal places. */
export const PRICE_MIN = 0.01;
