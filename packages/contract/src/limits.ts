/** Business constants of section 9 of the specification. */
export const PASSWORD_MIN_LENGTH = 6;
export const ACCESS_TOKEN_MAX_AGE_SECONDS = 300;
export const TOKEN_STORAGE_KEY = 'furnitureBea-token';
export const MAX_PAGE_WIDTH_PX = 1440;
export const OIDC_POPUP = { width: 500, height: 600 } as const;

export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 100;

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
