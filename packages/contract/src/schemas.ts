import { z } from 'zod';
import { capabilities } from './capabilities.ts';
import { bookingStatuses, conditions, fundsStates, listingStates, paymentStatuses, selfServiceRoles, stockStates, userRoles } from './enums.ts';
import { LIST_MAX_LIMIT, MEASUREMENT_MAX_CM, PASSWORD_MIN_LENGTH, PRICE_MAX, PRICE_MIN, PRODUCT_PHOTOS_MAX } from './limits.ts';
import { messages } from './messages.ts';

// The web app's content security policy allows no eval: in a browser zod parses without compiled
// code and never probes for it (Chromium reports the probe as a violation). Servers keep compiling.
// Set here, before any schema exists, because each object schema reads it when it is made.
if ('window' in globalThis) z.config({ jitless: true });

// ---------------------------------------------------------------- primitives

/**
 * Control characters other than tab, line feed and carriage return: nobody types them, and
 * PostgreSQL cannot store NUL in text at all.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** How messages name the fields people type into, where the field's own name would not do. */
const fieldLabels: Record<string, string> = {
  name: 'Name',
  email: 'E-mail',
  image: 'Photo',
  categoryName: 'Category name',
  description: 'Description',
  productName: 'Product name',
  yearsOfUsedProduct: 'Years of use',
  location: 'Location',
  transactionId: 'Transaction id',
  status: 'Payment status',
  clientSecret: 'Payment reference',
  q: 'Search words',
  cursor: 'Page link',
  text: 'Text',
  note: 'Note',
  reason: 'Reason',
};

/** What a field holding a control character is told, naming the field by its label. */
export const controlCharactersMessage = (field: string) => `${fieldLabels[field] ?? field} must not contain control characters`;

/** A string that refuses control characters, with a message naming the field by its label. */
export const plainString = (field: string, required = `${field} is required`) =>
  z.string({ error: required }).refine((value) => !CONTROL_CHARACTERS.test(value), controlCharactersMessage(field));

export const idSchema = z.uuid({ error: 'must be a valid id' });

/** PostgreSQL's largest bigint, 2^63 − 1: ids and cursors above it cannot name a row. */
const BIGINT_MAX = 9223372036854775807n;

/** A bigint id or keyset cursor as it travels in a query or header: a whole number PostgreSQL can hold. */
export const bigintText = (message: string) =>
  z.string().refine((text) => /^\d{1,19}$/.test(text) && BigInt(text) <= BIGINT_MAX, message);

export const emailSchema = plainString('email')
  .trim()
  .min(1, 'email is required')
  .max(254, 'email is too long')
  .pipe(z.email({ error: 'email must be a valid e-mail address' }))
  .transform((email) => email.toLowerCase());

/** Image fields take http(s) URLs only: the app's own uploads, or any public host. */
export const imageUrlSchema = plainString('image')
  .trim()
  .min(1, 'image is required')
  .max(2048, 'image URL is too long')
  .pipe(z.url({ protocol: /^https?$/, error: 'image must be an http(s) URL' }));

export const requiredText = (field: string, max = 200) =>
  plainString(field)
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

/**
 * A number, or a decimal numeral as forms and query strings send it ("12", "12.50"). Booleans,
 * signs, exponents and hexadecimal are refused rather than read as some number.
 */
export const decimalNumber = (message: string) =>
  z.union([z.number(), z.string().trim().regex(/^\d+(\.\d+)?$/).transform(Number)], { error: message });

/** An amount of money: at least PRICE_MIN, at most PRICE_MAX, with at most two decimal places. */
export const money = (field: string, { min = PRICE_MIN }: { min?: number } = {}) =>
  decimalNumber(`${field} must be a number`).pipe(
    z
      .number()
      .min(min, `${field} must be at least ${min}`)
      .max(PRICE_MAX, `${field} must be at most ${PRICE_MAX}`)
      .refine((amount) => Number(amount.toFixed(2)) === amount, `${field} must have at most 2 decimal places`),
  );

/** Phone numbers keep leading zeros and a "+", so they travel as digit strings. */
export const phone = (field: string) =>
  z
    .union([z.string(), z.number()], { error: `${field} is required` })
    .transform((value) => String(value).trim())
    .pipe(
      z
        .string()
        .min(1, `${field} is required`)
        .regex(/^\+?[0-9][0-9 ()-]{4,18}[0-9]$/, `${field} must be a phone number`),
    );

/** A length in centimetres: a positive number, as a number or a numeric string. */
export const centimetres = (field: string) =>
  decimalNumber(`${field} must be a number of centimetres`).pipe(
    z
      .number()
      .positive(`${field} must be greater than 0`)
      .max(MEASUREMENT_MAX_CM, `${field} must be at most ${MEASUREMENT_MAX_CM} cm`),
  );

/** A piece's outer size: all three or none. */
export const measurementsSchema = z.object({
  widthCm: centimetres('widthCm'),
  depthCm: centimetres('depthCm'),
  heightCm: centimetres('heightCm'),
});
export type Measurements = z.infer<typeof measurementsSchema>;

export const passwordSchema = z
  .string({ error: messages.passwordRequired })
  .min(1, messages.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, messages.passwordTooShort)
  .max(256, 'Password must be at most 256 characters long')
  .regex(/[A-Z]/, messages.passwordTooWeak)
  .regex(/[0-9]/, messages.passwordTooWeak);

// ---------------------------------------------------------------- queries

export const paginationQuery = z.object({
  page: z.coerce.number().int().min(1, 'page must be 1 or more').max(10_000, 'page must be at most 10000').optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1, 'limit must be 1 or more')
    .max(LIST_MAX_LIMIT, `limit must be at most ${LIST_MAX_LIMIT}`)
    .optional(),
});
export type Pagination = z.infer<typeof paginationQuery>;

export const emailQuery = z.object({ email: emailSchema });
/** An admin's list of accounts, narrowed to names or e-mails containing `q` when given. */
export const userListQuery = paginationQuery.extend({
  q: plainString('q').trim().max(100, 'q must be at most 100 characters').optional(),
});
export type UserListQuery = z.infer<typeof userListQuery>;
export const emailListQuery = paginationQuery.extend({ email: emailSchema });
export const idQuery = z.object({ id: idSchema });
export const idParams = z.object({ id: idSchema });

// ---------------------------------------------------------------- accounts

export const signupBody = z.object({
  name: requiredText('name', 100),
  email: emailSchema,
  password: passwordSchema,
  image: plainString('image', messages.photoRequired).trim().min(1, messages.photoRequired).pipe(imageUrlSchema),
  userRole: z.enum(selfServiceRoles, { error: messages.roleRequired }),
});
export type SignupBody = z.infer<typeof signupBody>;

export const loginBody = z.object({
  email: emailSchema,
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(256),
});
export type LoginBody = z.infer<typeof loginBody>;

export const getTokenBody = z.object({ email: emailSchema });

export const userAddToDbBody = z.object({
  name: requiredText('name', 100),
  email: emailSchema,
  image: imageUrlSchema,
  userRole: z.enum(selfServiceRoles, { error: messages.roleRequired }),
});

// ---------------------------------------------------------------- catalogue

export const addCategoryBody = z.object({
  categoryName: requiredText('categoryName', 80),
  description: requiredText('description', 1000),
  image: imageUrlSchema,
});
export type AddCategoryBody = z.infer<typeof addCategoryBody>;

/**
 * Seller name and e-mail, and the category name, may be sent (the specification's client does)
 * but are ignored: the server takes them from the account and the category.
 */
export const addProductBody = z.object({
  categoryId: z.string({ error: messages.productCategoryRequired }).min(1, messages.productCategoryRequired).pipe(idSchema),
  categoryName: z.string().optional(),
  condition: z.enum(conditions, { error: `condition must be one of ${conditions.join(', ')}` }),
  productName: requiredText('productName', 120),
  yearsOfUsedProduct: requiredText('yearsOfUsedProduct', 40),
  originalPrice: money('originalPrice'),
  resalePrice: money('resalePrice'),
  description: requiredText('description', 2000),
  sellerName: z.string().optional(),
  sellerEmail: z.string().optional(),
  phone: phone('phone'),
  location: requiredText('location', 200),
  /** The cover photo; may be left out when photos are sent (their first is the cover). */
  productImage: imageUrlSchema.optional(),
  photos: z.array(imageUrlSchema).max(PRODUCT_PHOTOS_MAX, `photos: at most ${PRODUCT_PHOTOS_MAX} photos`).optional(),
  measurements: measurementsSchema.optional(),
});
export type AddProductBody = z.infer<typeof addProductBody>;

// ---------------------------------------------------------------- buying

/** Only productId is used; the rest of the specification's wish payload is derived by the server. */
export const addWishBody = z.object({ productId: idSchema }).passthrough();

export const addBookingBody = z
  .object({
    productId: idSchema,
    phoneNumber: phone('phoneNumber'),
    location: requiredText('location', 200),
  })
  .passthrough();
export type AddBookingBody = z.infer<typeof addBookingBody>;

/** The price the specification's client sends is ignored: the server charges the product's price. */
export const createPaymentIntentBody = z
  .object({ bookingId: idSchema, productPrice: z.unknown().optional() })
  .passthrough();
export const createPaymentIntentResponse = z.object({ success: z.literal(true), clientSecret: z.string() });
export type CreatePaymentIntentResponse = z.infer<typeof createPaymentIntentResponse>;

/**
 * The specification's payment record. The server re-reads the status from the payment provider
 * and takes the buyer's name and e-mail from the account; bookingId picks the booking when sent.
 */
export const paymentBody = z
  .object({
    status: plainString('status').max(100, 'status must be at most 100 characters'),
    transactionId: requiredText('transactionId', 255),
    productId: idSchema,
    bookingId: idSchema.optional(),
    buyerName: z.string().optional(),
    buyerEmail: z.string().optional(),
  })
  .passthrough();
export type PaymentBody = z.infer<typeof paymentBody>;

/** Card details for the simulated provider's confirm call; the provider checks them as Stripe does. */
export const simulatedConfirmBody = z.object({
  clientSecret: plainString('clientSecret').min(1, 'clientSecret is required').max(200),
  card: z.object({
    number: z.union([z.string(), z.number()]).transform(String).pipe(z.string().max(40)),
    expMonth: z.union([z.string(), z.number()]).transform(String).pipe(z.string().max(4)),
    expYear: z.union([z.string(), z.number()]).transform(String).pipe(z.string().max(6)),
    cvc: z.union([z.string(), z.number()]).transform(String).pipe(z.string().max(8)),
  }),
  billingDetails: z
    .object({ name: z.string().max(200).optional(), email: z.string().max(254).optional() })
    .optional(),
});
export type SimulatedConfirmBody = z.input<typeof simulatedConfirmBody>;
export const simulatedConfirmResponse = z.object({
  paymentIntent: z.object({ id: z.string(), status: z.string() }),
});
/** A card error, shaped like Stripe.js's: the message goes in red under the card field. */
export const cardErrorResponse = z.object({
  error: z.object({ message: z.string(), code: z.string().optional(), declineCode: z.string().optional() }),
});
export type CardErrorResponse = z.infer<typeof cardErrorResponse>;

// ---------------------------------------------------------------- responses

export const publicUser = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  image: z.string().nullable(),
  userRole: z.enum(userRoles),
  /** What the account may do (buy, sell, admin); `userRole` is its main role. */
  capabilities: z.array(z.enum(capabilities)),
  verified: z.boolean(),
  /** The owner proved the e-mail; `verified` is the admin's mark. */
  emailVerified: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUser>;

/** An account as an admin's lists of buyers and sellers show it: the profile, and whether it is suspended. */
export const managedUser = publicUser.extend({ suspended: z.boolean() });
export type ManagedUser = z.infer<typeof managedUser>;

export const category = z.object({
  _id: z.string(),
  categoryName: z.string(),
  description: z.string(),
  image: z.string(),
});
export type Category = z.infer<typeof category>;

/** A change of asking price, oldest first; the first entry is the price it was listed at. */
export const priceChange = z.object({ price: z.number(), changedAt: z.string() });
export type PriceChange = z.infer<typeof priceChange>;

export const product = z.object({
  _id: z.string(),
  categoryId: z.string(),
  categoryName: z.string(),
  condition: z.enum(conditions),
  productName: z.string(),
  yearsOfUsedProduct: z.string(),
  originalPrice: z.number(),
  resalePrice: z.number(),
  description: z.string(),
  sellerName: z.string(),
  sellerEmail: z.string(),
  phone: z.string(),
  location: z.string(),
  productImage: z.string(),
  /** Every photo, the cover (productImage) first. */
  photos: z.array(z.string()),
  measurements: measurementsSchema.nullable(),
  advertisement: z.boolean(),
  postedAt: z.string(),
  postedDate: z.string(),
  postedTime: z.string(),
  /** 'available' only when the piece can be booked and paid (decision 20); the specification's field. */
  inStock: z.enum(stockStates),
  state: z.enum(listingStates),
  /** Asking prices, oldest first; a last entry above resalePrice is shown as "was $X". */
  priceHistory: z.array(priceChange),
  reported: z.boolean(),
  sellerVerified: z.boolean(),
  /** The average (one decimal) and number of reviews about the seller; null before the first (decision 23). */
  sellerRating: z.object({ average: z.number(), count: z.number().int() }).nullable(),
  /** The listing's town's point, rounded to about 1 km; null when its location names no known town. */
  point: z.object({ lat: z.number(), lon: z.number() }).nullable(),
  /** Kilometres from the point a search was near (near or nearPlace), to a tenth. */
  distanceKm: z.number().optional(),
});
export type Product = z.infer<typeof product>;

/** A wish has the shape of its product, with its own _id and the product's id. */
export const wish = product.extend({ productId: z.string() });
export type Wish = z.infer<typeof wish>;

/** A booking's buyer protection, as both its buyer and its seller see it. */
export const bookingProtection = z.object({
  /** Where the sale's money is; null for a booking not paid (or paid before buyer protection). */
  fundsState: z.enum(fundsStates).nullable(),
  /** When held money is released if nobody reports a problem; null until the piece is handed over. */
  releaseAt: z.string().nullable(),
  /** The buyer reported a problem that no admin has decided yet. */
  problemOpen: z.boolean(),
});
export const booking = z.object({
  _id: z.string(),
  buyerName: z.string(),
  buyerEmail: z.string(),
  productId: z.string().nullable(),
  productName: z.string(),
  productPrice: z.number(),
  productImage: z.string(),
  inStock: z.enum(stockStates),
  phoneNumber: z.string(),
  location: z.string(),
  /** When the booking was made (ISO 8601). */
  bookedAt: z.string(),
  /** Whom the buyer meets: the seller's name and the product's phone; null once the product is deleted. */
  sellerName: z.string().nullable(),
  sellerPhone: z.string().nullable(),
  paymentStatus: z.enum(paymentStatuses),
  transactionId: z.string().nullable(),
  status: z.enum(bookingStatuses),
  /** Why it was declined or cancelled, in words for the buyer. */
  statusReason: z.string().nullable(),
  ...bookingProtection.shape,
});
export type Booking = z.infer<typeof booking>;

export const successMessage = z.object({ success: z.boolean(), message: z.string() });
export const tokenResponse = z.object({ success: z.literal(true), token: z.string(), message: z.string() });
export type TokenResponse = z.infer<typeof tokenResponse>;
export const deleteResponse = z.object({ success: z.boolean(), deletedCount: z.number(), message: z.string() });
/** What a change answers: whether it was made, and a message to show. */
export type MessageResponse = z.infer<typeof successMessage>;
export type DeleteResponse = z.infer<typeof deleteResponse>;
/** Every 4xx answer: a message to show, and for bad input each field with the rule it broke. */
export const errorResponse = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ success: z.literal(true), data: schema });
/** The answer of `dataOf` (and, for a list, `listOf`): what a client receives. */
export type DataResponse<T> = { success: true; data: T };
/** A created record: the specification's success and message, and the record itself. */
export const createdOf = <T extends z.ZodType>(schema: T) =>
  z.object({ success: z.literal(true), message: z.string(), data: schema });
export type CreatedResponse<T> = { success: true; message: string; data: T };
/** GET /category/{id}: the specification shows no shape; the products travel under `products`. */
export const categoryProducts = z.object({ success: z.literal(true), products: z.array(product) });
export type CategoryProducts = z.infer<typeof categoryProducts>;
/** GET /me/product-marks: the products the caller has wished for, booked and listed, by id. */
export const productMarks = z.object({
  wishedProductIds: z.array(z.string()),
  bookedProductIds: z.array(z.string()),
  /** The caller's own listings, which they can neither wish for nor book. */
  ownProductIds: z.array(z.string()),
});
export type ProductMarks = z.infer<typeof productMarks>;
export const listOf = <T extends z.ZodType>(schema: T) => z.object({ success: z.literal(true), data: z.array(schema) });

/** The social networks the footer has icons for, by the host names of their profile pages. */
export const socialNetworkHosts = {
  Twitter: ['twitter.com', 'x.com'],
  YouTube: ['youtube.com'],
  Facebook: ['facebook.com'],
} as const;
export type SocialNetwork = keyof typeof socialNetworkHosts;

/** The network a profile URL belongs to; undefined for a host the footer has no icon for. */
export function socialNetworkOf(url: string): SocialNetwork | undefined {
  const host = new URL(url).hostname.replace(/^www\./, '');
  return (Object.keys(socialNetworkHosts) as SocialNetwork[]).find((network) =>
    (socialNetworkHosts[network] as readonly string[]).includes(host),
  );
}

export const clientConfig = z.object({
  googleSignIn: z.boolean(),
  /** The marketplace's own profiles (SOCIAL_LINKS); the footer shows no social links without them. */
  socialLinks: z.array(z.object({ network: z.enum(['Twitter', 'YouTube', 'Facebook']), url: z.string() })),
  paymentProvider: z.enum(['simulated', 'stripe']),
  stripePublishableKey: z.string().nullable(),
  /** PLATFORM_FEE_PERCENT and PLATFORM_FEE_FIXED_CENTS: the forms show what a seller receives as they type a price. */
  platformFee: z.object({ percent: z.number(), fixedCents: z.number().int() }),
  /** MAP_TILES_URL and MAP_TILES_ATTRIBUTION: the map's tiles; null, the map draws countries' outlines of its own. */
  mapTiles: z.object({ url: z.string(), attribution: z.string() }).nullable(),
});
export type ClientConfig = z.infer<typeof clientConfig>;

// ---------------------------------------------------------------- images and Google sign-in

/** POST /api/images: the shape of the specification's image host, plus the thumbnail and size. */
export const uploadedImage = z.object({
  url: z.string(),
  thumbnailUrl: z.string(),
  width: z.number(),
  height: z.number(),
});
export type UploadedImage = z.infer<typeof uploadedImage>;

/** POST /api/auth/oidc/link: proves the password of the account a Google identity is linked to. */
export const oidcLinkBody = z.object({
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(256),
});

/**
 * What the Google sign-in popup posts to its opener (same origin) before it closes. ok: the
 * session cookie is set, call /api/auth/refresh for a token. linkRequired: an account with this
 * e-mail exists; POST its password to /api/auth/oidc/link to link and sign in.
 * secondStepChallenge: the account has an authenticator app; no session yet, finish with POST
 * /api/auth/second-step.
 */
export const oidcPopupResult = z.object({
  type: z.literal('oidc-result'),
  ok: z.boolean(),
  message: z.string().optional(),
  linkRequired: z.boolean().optional(),
  secondStepChallenge: z.string().optional(),
});
export type OidcPopupResult = z.infer<typeof oidcPopupResult>;
