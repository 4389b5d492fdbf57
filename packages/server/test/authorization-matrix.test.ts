import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createCategory, createProduct, createUser, createWish, TEST_TOTP_SECRET } from '../src/demo/factories.ts';
import { generate } from 'otplib';
import { eq } from 'drizzle-orm';
import { chatMessages, conversations, listingAppeals, offers, products, users } from '../src/db/schema/index.ts';
import { unsubscribeToken } from '../src/notifications/notification-mail.ts';
import { createAccessTokens } from '../src/users/access-tokens.ts';
import type { UserRow } from '../src/users/user-repository.ts';
import { bearer, setupTestApp } from './app.ts';
import { multipartPayload, pngImage } from './images.ts';
import { randomUUID } from 'node:crypto';

/**
 * Every /api route, called by every kind of caller, with the exact status each must get.
 * A route without a row here fails the suite, so a new route cannot ship without deciding who
 * may call it. Each cell builds its own data, so no cell depends on another.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'furniture-matrix-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const t = setupTestApp({ dataDir });

const callers = ['anonymous', 'buyer', 'buyer2', 'seller', 'seller2', 'admin', 'expired', 'tampered'] as const;
type Caller = (typeof callers)[number];
type Account = 'buyer' | 'buyer2' | 'seller' | 'seller2' | 'admin';

interface World {
  users: Record<Account, UserRow>;
  categoryId: string;
  /** The authorization header of an account, for requests a cell makes while preparing. */
  as(account: Account): Promise<{ authorization: string }>;
}

type Cell = Omit<InjectOptions, 'method'> & { url: string };
type Statuses = [anonymous: number, buyer: number, buyer2: number, seller: number, seller2: number, admin: number, expired: number, tampered: number];

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route as registered. */
  route: string;
  statuses: Statuses;
  /** The request of one cell; the route itself when absent. */
  request?: (world: World) => Promise<Cell> | Cell;
  /** Names a further row of a route whose rule depends on what is asked (a report of a message, not a listing). */
  variant?: string;
  /** Undoes what a cell changed about the callers' accounts, so later cells find them as they were. */
  after?: (world: World) => Promise<void>;
}

let counter = 0;
const uniqueName = (prefix: string) => `${prefix} ${process.pid}-${++counter}`;

// What cells are about: the seller's products and the buyer's bookings and wishes.
const productOfSeller = (w: World) => createProduct(t.db, { categoryId: w.categoryId, sellerId: w.users.seller.id });
const bookingOfBuyer = async (w: World) => createBooking(t.db, await productOfSeller(w), w.users.buyer.id);
/** A listing of the seller an admin hid: its seller may appeal. */
const hiddenProductOfSeller = async (w: World) => {
  const product = await productOfSeller(w);
  const [hidden] = await t.db
    .update(products)
    .set({ moderation: 'hidden', moderationReason: 'Looks copied', moderatedAt: new Date() })
    .where(eq(products.id, product.id))
    .returning();
  return hidden!;
};
const freshAccount = (role: 'buyer' | 'seller' | 'admin') => createUser(t.db, { role, password: null });

const paymentIntentOfBuyer = async (w: World) => {
  const booking = await bookingOfBuyer(w);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/create-payment-intent',
    headers: await w.as('buyer'),
    payload: { bookingId: booking.id },
  });
  return { booking, clientSecret: response.json().clientSecret as string };
};
/** A booking of the buyer, paid by card: the sale happened. */
const paidBookingOfBuyer = async (w: World) => {
  const { booking, clientSecret } = await paymentIntentOfBuyer(w);
  const headers = await w.as('buyer');
  const confirmed = await t.app.inject({ method: 'POST', url: '/api/payments/simulated/confirm', headers, payload: { clientSecret, card } });
  const transactionId = confirmed.json().paymentIntent.id as string;
  await t.app.inject({ method: 'POST', url: '/api/payment', headers, payload: { status: 'succeeded', transactionId, productId: booking.productId } });
  return booking;
};
/** A paid booking of the buyer, handed over by the seller: a closed sale, which can be reviewed. */
const closedSaleOfBuyer = async (w: World) => {
  const booking = await paidBookingOfBuyer(w);
  await t.app.inject({ method: 'POST', url: `/api/bookings/${booking.id}/handover`, headers: await w.as('seller') });
  return booking;
};
/** A paid sale whose buyer reported a problem: its money is frozen, waiting for an admin. Answers the problem's id. */
const problemOfBuyer = async (w: World) => {
  const booking = await paidBookingOfBuyer(w);
  const reported = await t.app.inject({
    method: 'POST',
    url: `/api/bookings/${booking.id}/problem`,
    headers: await w.as('buyer'),
    payload: { reason: 'not-received', note: 'Nobody came' },
  });
  return reported.json().data._id as string;
};
/** A passkey's answer, well formed, to a challenge the server never gave. */
const unknownPasskeyAnswer = () => {
  const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: randomUUID(), origin: 'http://localhost:5000' })).toString('base64url');
  return { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON }, clientExtensionResults: {} };
};
const card = { number: '4242424242424242', expMonth: '12', expYear: String(new Date().getUTCFullYear() + 3), cvc: '123' };

/** A thread between the buyer and the seller about one of the seller's products (stored directly: new conversations are rate-limited). */
const threadOfBuyer = async (w: World) => {
  const [created] = await t.db
    .insert(conversations)
    .values({ productId: (await productOfSeller(w)).id, buyerId: w.users.buyer.id, sellerId: w.users.seller.id })
    .returning({ id: conversations.id });
  return created!.id;
};
/** An open offer of the buyer in a fresh thread, for the seller to answer (stored directly: offers are rate-limited). */
const offerOfBuyer = async (w: World) => {
  const expiresAt = new Date(Date.now() + 60 * 60 * 1000);
  const [created] = await t.db
    .insert(offers)
    .values({ conversationId: await threadOfBuyer(w), senderId: w.users.buyer.id, amount: '10.00', expiresAt })
    .returning({ id: offers.id });
  return created!.id;
};

/** A message of the seller in a fresh thread with the buyer (stored directly: messages are rate-limited). */
const messageOfSeller = async (w: World) => {
  const [created] = await t.db
    .insert(chatMessages)
    .values({ conversationId: await threadOfBuyer(w), senderId: w.users.seller.id, text: 'Pay me outside the site' })
    .returning({ id: chatMessages.id });
  return created!.id;
};

/** Six digits the test admins' app shows at none of the steps the server accepts now. */
async function codeTheAppDoesNotShow(): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const shown = await Promise.all([-30, 0, 30].map((offset) => generate({ secret: TEST_TOTP_SECRET, epoch: now + offset })));
  return ['000000', '111111', '222222', '333333'].find((code) => !shown.includes(code))!;
}

//                                     anon buyer buyer2 seller seller2 admin expired tampered
const everyone = (s: number): Statuses => [s, s, s, s, s, s, s, s];
const anySignedIn = (s: number): Statuses => [401, s, s, s, s, s, 401, 401];

const matrix: Row[] = [
  // ---------------------------------------------------------------- health, settings, documents
  { method: 'GET', route: '/api/health', statuses: everyone(200) },
  { method: 'GET', route: '/api/config', statuses: everyone(200) },
  { method: 'GET', route: '/api/openapi.json', statuses: everyone(200) },

  // ---------------------------------------------------------------- accounts
  {
    method: 'POST',
    route: '/api/auth/signup',
    statuses: everyone(201),
    request: () => ({
      url: '/api/auth/signup',
      payload: { name: 'New', email: `${uniqueName('signup').replace(/\W/g, '')}@example.com`, password: 'Secret123', image: 'https://images.example.com/a.webp', userRole: 'buyer' },
    }),
  },
  {
    method: 'POST',
    route: '/api/auth/login',
    statuses: everyone(200),
    request: async () => {
      const user = await createUser(t.db);
      return { url: '/api/auth/login', payload: { email: user.email, password: 'Secret123' } };
    },
  },
  // Without a session cookie there is nothing to refresh, whoever asks.
  { method: 'POST', route: '/api/auth/refresh', statuses: everyone(401) },
  { method: 'POST', route: '/api/auth/logout', statuses: everyone(200) },
  { method: 'GET', route: '/api/auth/me', statuses: anySignedIn(200) },
  {
    method: 'POST',
    route: '/api/getToken',
    statuses: [401, 200, 403, 403, 403, 403, 401, 401],
    request: (w) => ({ url: '/api/getToken', payload: { email: w.users.buyer.email } }),
  },
  {
    method: 'POST',
    route: '/api/userAddToDb',
    // Only the account's own profile: nobody shapes an account for an e-mail not proven theirs.
    statuses: [401, 200, 403, 403, 403, 403, 401, 401],
    request: (w) => ({
      url: '/api/userAddToDb',
      payload: { name: 'Profile', email: w.users.buyer.email, image: 'https://images.example.com/p.webp', userRole: 'buyer' },
    }),
  },
  { method: 'GET', route: '/api/user', statuses: everyone(200), request: (w) => ({ url: `/api/user?email=${w.users.seller.email}` }) },
  // The same answer for any address, so whoever asks learns nothing of who has an account.
  {
    method: 'POST',
    route: '/api/auth/forgot-password',
    statuses: everyone(200),
    request: () => ({ url: '/api/auth/forgot-password', payload: { email: `${uniqueName('forgot').replace(/\W/g, '')}@example.com` } }),
  },
  // Only the e-mailed token proves anything, whoever sends it: an unknown one is refused for everyone.
  { method: 'POST', route: '/api/auth/reset-password', statuses: everyone(400), request: () => ({ url: '/api/auth/reset-password', payload: { token: 'unknown', password: 'Secret123' } }) },
  { method: 'POST', route: '/api/auth/verify-email', statuses: everyone(400), request: () => ({ url: '/api/auth/verify-email', payload: { token: 'unknown' } }) },
  { method: 'POST', route: '/api/auth/verify-email/send', statuses: anySignedIn(200) },
  { method: 'GET', route: '/api/me', statuses: anySignedIn(200) },
  { method: 'PATCH', route: '/api/me', statuses: anySignedIn(200), request: () => ({ url: '/api/me', payload: { location: 'Dhaka' } }) },
  // The matrix's accounts have no password, so no current password is right: each caller is still let in to be told so.
  {
    method: 'POST',
    route: '/api/me/password',
    statuses: anySignedIn(400),
    request: () => ({ url: '/api/me/password', payload: { currentPassword: 'Secret123', newPassword: 'Changed789' } }),
  },
  // The matrix's accounts have no password to prove: each signed-in caller may ask for a link.
  {
    method: 'POST',
    route: '/api/me/email',
    statuses: anySignedIn(200),
    request: () => ({ url: '/api/me/email', payload: { email: `${uniqueName('moved').replace(/\W/g, '')}@example.com` } }),
  },
  { method: 'POST', route: '/api/auth/change-email', statuses: everyone(400), request: () => ({ url: '/api/auth/change-email', payload: { token: 'unknown' } }) },
  { method: 'GET', route: '/api/me/sessions', statuses: anySignedIn(200) },
  // Anyone may start selling; asking again changes nothing.
  {
    method: 'POST',
    route: '/api/me/selling',
    statuses: anySignedIn(200),
    after: async (w) => {
      for (const user of Object.values(w.users)) {
        await t.db.update(users).set({ role: user.role, capabilities: user.capabilities }).where(eq(users.id, user.id));
      }
    },
  },
  // Only the caller's own sessions can be signed out: any other id is not found among them.
  { method: 'DELETE', route: '/api/me/sessions/:id', statuses: anySignedIn(404), request: () => ({ url: `/api/me/sessions/${randomUUID()}` }) },
  { method: 'DELETE', route: '/api/me/sessions', statuses: anySignedIn(200) },
  { method: 'GET', route: '/api/me/passkeys', statuses: anySignedIn(200) },
  { method: 'POST', route: '/api/me/passkeys/options', statuses: anySignedIn(200) },
  // A passkey answering a challenge never given is refused for every account.
  { method: 'POST', route: '/api/me/passkeys', statuses: anySignedIn(400), request: () => ({ url: '/api/me/passkeys', payload: { response: unknownPasskeyAnswer() } }) },
  // Only the caller's own passkeys can be removed: any other id is not found among them.
  { method: 'DELETE', route: '/api/me/passkeys/:id', statuses: anySignedIn(404), request: () => ({ url: `/api/me/passkeys/${randomUUID()}` }) },
  { method: 'GET', route: '/api/me/export', statuses: anySignedIn(200) },
  // The matrix's accounts have no password, so none can confirm a deletion with one: each is let in to be told so, and nothing is deleted.
  { method: 'DELETE', route: '/api/me', statuses: anySignedIn(403), request: () => ({ url: '/api/me', payload: { password: 'Secret123' } }) },
  // Two-step sign-in (decision 38). The admin has an authenticator app on already (the factories give it one).
  { method: 'GET', route: '/api/me/second-step', statuses: anySignedIn(200) },
  { method: 'POST', route: '/api/me/second-step/totp', statuses: [401, 200, 200, 200, 200, 409, 401, 401] },
  {
    method: 'POST',
    route: '/api/me/second-step/totp/confirm',
    statuses: [401, 400, 400, 400, 400, 409, 401, 401],
    request: () => ({ url: '/api/me/second-step/totp/confirm', payload: { code: '000000' } }),
  },
  // A code the app does not show: without an app it is refused as such (400), the admin's as wrong (401).
  {
    method: 'DELETE',
    route: '/api/me/second-step',
    statuses: [401, 400, 400, 400, 400, 401, 401, 401],
    request: async () => ({ url: '/api/me/second-step', payload: { code: await codeTheAppDoesNotShow() } }),
  },
  // A challenge the server did not sign proves nothing, whoever sends it.
  {
    method: 'POST',
    route: '/api/auth/second-step',
    statuses: everyone(401),
    request: () => ({ url: '/api/auth/second-step', payload: { challenge: `${randomUUID()}.9999999999.forged`, code: '123456' } }),
  },
  { method: 'POST', route: '/api/auth/passkey/options', statuses: everyone(200) },
  // Only a passkey's answer to a challenge given proves anything, whoever sends it.
  { method: 'POST', route: '/api/auth/passkey', statuses: everyone(400), request: () => ({ url: '/api/auth/passkey', payload: { response: unknownPasskeyAnswer() } }) },

  // Google sign-in is public; without an OpenID provider configured (as here) it says it is not set up.
  { method: 'GET', route: '/api/auth/oidc/start', statuses: everyone(404) },
  { method: 'GET', route: '/api/auth/oidc/callback', statuses: everyone(404), request: () => ({ url: '/api/auth/oidc/callback?state=s&code=c' }) },
  // Linking needs the pending sign-in's cookie, whoever asks.
  { method: 'POST', route: '/api/auth/oidc/link', statuses: everyone(400), request: () => ({ url: '/api/auth/oidc/link', payload: { password: 'Secret123' } }) },

  // ---------------------------------------------------------------- catalogue
  { method: 'GET', route: '/api', statuses: everyone(200) },
  { method: 'GET', route: '/api/allCategories', statuses: everyone(200) },
  { method: 'GET', route: '/api/advertisement', statuses: everyone(200) },
  { method: 'GET', route: '/api/products', statuses: everyone(200), request: (w) => ({ url: `/api/products?categoryId=${w.categoryId}&q=chair` }) },
  { method: 'GET', route: '/api/places', statuses: everyone(200), request: () => ({ url: '/api/places?q=dhaka' }) },
  {
    method: 'GET',
    route: '/api/products/:id',
    statuses: everyone(200),
    request: async (w) => ({ url: `/api/products/${(await productOfSeller(w)).id}` }),
  },
  {
    method: 'GET',
    route: '/api/price-guide',
    statuses: [401, 403, 403, 200, 200, 403, 401, 401],
    request: (w) => ({ url: `/api/price-guide?categoryId=${w.categoryId}&condition=Good&originalPrice=500&yearsUsed=2` }),
  },
  { method: 'GET', route: '/api/category/:id', statuses: anySignedIn(200), request: (w) => ({ url: `/api/category/${w.categoryId}` }) },
  {
    method: 'POST',
    route: '/api/addCategory',
    statuses: [401, 403, 403, 403, 403, 201, 401, 401],
    request: () => ({
      url: '/api/addCategory',
      payload: { categoryName: uniqueName('Category'), description: 'Things', image: 'https://images.example.com/c.webp' },
    }),
  },
  {
    method: 'POST',
    route: '/api/addProduct',
    statuses: [401, 403, 403, 201, 201, 403, 401, 401],
    request: (w) => ({
      url: '/api/addProduct',
      payload: {
        categoryId: w.categoryId,
        condition: 'Good',
        productName: 'Armchair',
        yearsOfUsedProduct: '2 years',
        originalPrice: 300,
        resalePrice: 120,
        description: 'Comfortable',
        phone: '01700000000',
        location: 'Dhaka',
        productImage: 'https://images.example.com/armchair.webp',
      },
    }),
  },
  {
    method: 'GET',
    route: '/api/myProducts',
    statuses: [401, 403, 403, 200, 403, 200, 401, 401],
    request: (w) => ({ url: `/api/myProducts?email=${w.users.seller.email}` }),
  },
  {
    method: 'DELETE',
    route: '/api/productDelete',
    statuses: [401, 403, 403, 200, 403, 200, 401, 401],
    request: async (w) => ({ url: `/api/productDelete?id=${(await productOfSeller(w)).id}` }),
  },
  {
    method: 'POST',
    route: '/api/productAddToAdvertisement',
    statuses: [401, 403, 403, 200, 403, 403, 401, 401],
    request: async (w) => ({ url: `/api/productAddToAdvertisement?id=${(await productOfSeller(w)).id}` }),
  },

  // ---------------------------------------------------------------- wishes and bookings
  // Sellers buy too (decision 37): another seller's piece is theirs to wish for, book and pay for,
  // their own is refused (403), and another buyer's booking is missing to them (404). This admin never bought.
  {
    method: 'GET',
    route: '/api/wishes',
    statuses: [401, 200, 403, 403, 403, 200, 401, 401],
    request: (w) => ({ url: `/api/wishes?email=${w.users.buyer.email}` }),
  },
  {
    method: 'POST',
    route: '/api/addWish',
    statuses: [401, 201, 201, 403, 201, 403, 401, 401],
    request: async (w) => ({ url: '/api/addWish', payload: { productId: (await productOfSeller(w)).id } }),
  },
  {
    method: 'DELETE',
    route: '/api/wishDelete',
    statuses: [401, 200, 404, 404, 404, 403, 401, 401],
    request: async (w) => {
      const wish = await createWish(t.db, { buyerId: w.users.buyer.id, productId: (await productOfSeller(w)).id });
      return { url: `/api/wishDelete?id=${wish.id}`, payload: { buyerEmail: w.users.buyer.email } };
    },
  },
  { method: 'GET', route: '/api/me/product-marks', statuses: anySignedIn(200) },
  {
    method: 'GET',
    route: '/api/booking',
    statuses: [401, 200, 403, 403, 403, 200, 401, 401],
    request: (w) => ({ url: `/api/booking?email=${w.users.buyer.email}` }),
  },
  {
    method: 'POST',
    route: '/api/addBooking',
    statuses: [401, 201, 201, 403, 201, 403, 401, 401],
    request: async (w) => ({
      url: '/api/addBooking',
      payload: { productId: (await productOfSeller(w)).id, phoneNumber: '01712345678', location: 'Gulshan' },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/bookingDelete',
    statuses: [401, 200, 404, 404, 404, 403, 401, 401],
    request: async (w) => ({ url: `/api/bookingDelete?id=${(await bookingOfBuyer(w)).id}`, payload: { buyerEmail: w.users.buyer.email } }),
  },

  // ---------------------------------------------------------------- the seller's side of a sale
  { method: 'GET', route: '/api/seller/bookings', statuses: [401, 403, 403, 200, 200, 403, 401, 401] },
  // Another seller's or buyer's booking answers as a missing one (404): ids reveal nothing.
  {
    method: 'POST',
    route: '/api/bookings/:id/accept',
    statuses: [401, 403, 403, 200, 404, 403, 401, 401],
    request: async (w) => ({ url: `/api/bookings/${(await bookingOfBuyer(w)).id}/accept` }),
  },
  {
    method: 'POST',
    route: '/api/bookings/:id/decline',
    statuses: [401, 403, 403, 200, 404, 403, 401, 401],
    request: async (w) => ({ url: `/api/bookings/${(await bookingOfBuyer(w)).id}/decline`, payload: { reason: 'Sold to a neighbour' } }),
  },
  {
    method: 'POST',
    route: '/api/bookings/:id/cancel',
    statuses: [401, 200, 404, 404, 404, 403, 401, 401],
    request: async (w) => ({ url: `/api/bookings/${(await bookingOfBuyer(w)).id}/cancel` }),
  },
  {
    method: 'POST',
    route: '/api/bookings/:id/handover',
    statuses: [401, 403, 403, 200, 404, 403, 401, 401],
    request: async (w) => ({ url: `/api/bookings/${(await paidBookingOfBuyer(w)).id}/handover` }),
  },
  {
    method: 'POST',
    route: '/api/bookings/:id/received',
    statuses: [401, 200, 404, 404, 404, 403, 401, 401],
    request: async (w) => ({ url: `/api/bookings/${(await paidBookingOfBuyer(w)).id}/received` }),
  },
  {
    method: 'POST',
    route: '/api/bookings/:id/refund',
    statuses: [401, 403, 403, 200, 404, 403, 401, 401],
    request: async (w) => ({ url: `/api/bookings/${(await paidBookingOfBuyer(w)).id}/refund` }),
  },
  {
    method: 'POST',
    route: '/api/bookings/:id/problem',
    statuses: [401, 201, 404, 404, 404, 403, 401, 401],
    request: async (w) => ({
      url: `/api/bookings/${(await paidBookingOfBuyer(w)).id}/problem`,
      payload: { reason: 'damaged', note: 'A leg is broken' },
    }),
  },
  {
    method: 'POST',
    route: '/api/admin/problems/:id/release',
    statuses: [401, 403, 403, 403, 403, 200, 401, 401],
    request: async (w) => ({ url: `/api/admin/problems/${await problemOfBuyer(w)}/release` }),
  },
  {
    method: 'POST',
    route: '/api/admin/problems/:id/refund',
    statuses: [401, 403, 403, 403, 403, 200, 401, 401],
    request: async (w) => ({ url: `/api/admin/problems/${await problemOfBuyer(w)}/refund` }),
  },
  { method: 'GET', route: '/api/me/earnings', statuses: [401, 403, 403, 200, 200, 403, 401, 401] },
  {
    method: 'GET',
    route: '/api/me/earnings/statement',
    statuses: [401, 403, 403, 200, 200, 403, 401, 401],
    request: () => ({ url: '/api/me/earnings/statement?month=2026-01' }),
  },
  { method: 'GET', route: '/api/me/payouts', statuses: [401, 403, 403, 200, 200, 403, 401, 401] },
  // A seller with money available is paid out; the second seller has none (409), but may ask.
  {
    method: 'POST',
    route: '/api/me/payouts',
    statuses: [401, 403, 403, 201, 409, 403, 401, 401],
    request: async (w) => {
      const booking = await paidBookingOfBuyer(w);
      await t.app.inject({ method: 'POST', url: `/api/bookings/${booking.id}/received`, headers: await w.as('buyer') });
      return { url: '/api/me/payouts' };
    },
  },
  { method: 'GET', route: '/api/me/payout-account', statuses: [401, 403, 403, 200, 200, 403, 401, 401] },
  // With the simulated payout provider there is nothing to set up (409), for any seller.
  { method: 'POST', route: '/api/me/payout-account', statuses: [401, 403, 403, 409, 409, 403, 401, 401] },
  { method: 'GET', route: '/api/admin/finance', statuses: [401, 403, 403, 403, 403, 200, 401, 401] },
  {
    method: 'PATCH',
    route: '/api/products/:id',
    statuses: [401, 403, 403, 200, 403, 403, 401, 401],
    request: async (w) => ({ url: `/api/products/${(await productOfSeller(w)).id}`, payload: { description: 'Freshly oiled' } }),
  },
  ...(['renew', 'withdraw', 'sold-elsewhere'] as const).map(
    (action): Row => ({
      method: 'POST',
      route: `/api/products/:id/${action}`,
      statuses: [401, 403, 403, 200, 403, 403, 401, 401],
      request: async (w) => ({ url: `/api/products/${(await productOfSeller(w)).id}/${action}` }),
    }),
  ),

  // ---------------------------------------------------------------- payments
  {
    method: 'POST',
    route: '/api/create-payment-intent',
    statuses: [401, 200, 404, 404, 404, 403, 401, 401],
    request: async (w) => ({ url: '/api/create-payment-intent', payload: { bookingId: (await bookingOfBuyer(w)).id } }),
  },
  {
    method: 'GET',
    route: '/api/dashboard/payment/:id',
    statuses: [401, 200, 404, 404, 404, 403, 401, 401],
    request: async (w) => ({ url: `/api/dashboard/payment/${(await bookingOfBuyer(w)).id}` }),
  },
  {
    method: 'POST',
    route: '/api/payments/simulated/confirm',
    // Another buyer's client secret is unknown to them: 400, as Stripe answers.
    statuses: [401, 200, 400, 400, 400, 403, 401, 401],
    request: async (w) => {
      const { clientSecret } = await paymentIntentOfBuyer(w);
      return { url: '/api/payments/simulated/confirm', payload: { clientSecret, card } };
    },
  },
  {
    method: 'POST',
    route: '/api/payment',
    statuses: [401, 200, 404, 404, 404, 403, 401, 401],
    request: async (w) => {
      const { booking, clientSecret } = await paymentIntentOfBuyer(w);
      const confirmed = await t.app.inject({
        method: 'POST',
        url: '/api/payments/simulated/confirm',
        headers: await w.as('buyer'),
        payload: { clientSecret, card },
      });
      const transactionId = confirmed.json().paymentIntent.id as string;
      const { buyer } = w.users;
      return {
        url: '/api/payment',
        payload: { status: 'succeeded', transactionId, productId: booking.productId, buyerName: buyer.name, buyerEmail: buyer.email },
      };
    },
  },
  // Stripe's webhook is public (its signature is the proof); with the simulated provider it is off.
  {
    method: 'POST',
    route: '/api/payments/stripe/webhook',
    statuses: everyone(404),
    request: () => ({ url: '/api/payments/stripe/webhook', headers: { 'content-type': 'application/json' }, payload: '{"id":"evt_1"}' }),
  },

  // ---------------------------------------------------------------- conversations and offers
  // A thread is the buyer's and the seller's only: to anyone else it does not exist (404), admins included.
  {
    method: 'POST',
    route: '/api/conversations',
    statuses: [401, 201, 201, 403, 201, 403, 401, 401],
    request: async (w) => ({ url: '/api/conversations', payload: { productId: (await productOfSeller(w)).id, text: 'Hello' } }),
  },
  // Only the seller of the booked piece opens a thread with its buyer; another seller's booking answers as a missing one.
  {
    method: 'POST',
    route: '/api/bookings/:id/conversation',
    statuses: [401, 403, 403, 201, 404, 403, 401, 401],
    request: async (w) => ({ url: `/api/bookings/${(await bookingOfBuyer(w)).id}/conversation` }),
  },
  { method: 'GET', route: '/api/conversations', statuses: anySignedIn(200) },
  {
    method: 'GET',
    route: '/api/conversations/:id/messages',
    statuses: [401, 200, 404, 200, 404, 404, 401, 401],
    request: async (w) => ({ url: `/api/conversations/${await threadOfBuyer(w)}/messages` }),
  },
  {
    method: 'POST',
    route: '/api/conversations/:id/messages',
    statuses: [401, 201, 404, 201, 404, 404, 401, 401],
    request: async (w) => ({ url: `/api/conversations/${await threadOfBuyer(w)}/messages`, payload: { text: 'Hello' } }),
  },
  {
    method: 'POST',
    route: '/api/conversations/:id/read',
    statuses: [401, 200, 404, 200, 404, 404, 401, 401],
    request: async (w) => ({ url: `/api/conversations/${await threadOfBuyer(w)}/read` }),
  },
  {
    method: 'POST',
    route: '/api/conversations/:id/offers',
    statuses: [401, 201, 404, 403, 404, 403, 401, 401],
    request: async (w) => ({ url: `/api/conversations/${await threadOfBuyer(w)}/offers`, payload: { amount: 10 } }),
  },
  // Only the side that did not make the offer answers it; the buyer who made it is told there is none to answer.
  {
    method: 'POST',
    route: '/api/offers/:id/accept',
    statuses: [401, 404, 404, 200, 404, 404, 401, 401],
    request: async (w) => ({ url: `/api/offers/${await offerOfBuyer(w)}/accept` }),
  },
  {
    method: 'POST',
    route: '/api/offers/:id/decline',
    statuses: [401, 404, 404, 200, 404, 404, 401, 401],
    request: async (w) => ({ url: `/api/offers/${await offerOfBuyer(w)}/decline` }),
  },
  {
    method: 'POST',
    route: '/api/offers/:id/counter',
    statuses: [401, 404, 404, 200, 404, 404, 401, 401],
    request: async (w) => ({ url: `/api/offers/${await offerOfBuyer(w)}/counter`, payload: { amount: 12 } }),
  },

  // ---------------------------------------------------------------- notifications
  { method: 'GET', route: '/api/notifications', statuses: anySignedIn(200) },
  { method: 'POST', route: '/api/notifications/read', statuses: anySignedIn(200), request: () => ({ url: '/api/notifications/read', payload: {} }) },
  { method: 'GET', route: '/api/me/notification-settings', statuses: anySignedIn(200) },
  {
    method: 'PUT',
    route: '/api/me/notification-settings',
    statuses: anySignedIn(200),
    request: () => ({ url: '/api/me/notification-settings', payload: { email: true, digest: false } }),
  },
  // The signed token is the credential, whoever carries it.
  {
    method: 'GET',
    route: '/api/notification-settings/unsubscribe',
    statuses: everyone(200),
    request: async () => ({ url: `/api/notification-settings/unsubscribe?token=${await unsubscribeToken(t.db, (await freshAccount('buyer')).id)}` }),
  },
  {
    method: 'POST',
    route: '/api/notification-settings/unsubscribe',
    statuses: everyone(200),
    request: async () => ({ url: `/api/notification-settings/unsubscribe?token=${await unsubscribeToken(t.db, (await freshAccount('buyer')).id)}` }),
  },

  // ---------------------------------------------------------------- images
  {
    method: 'POST',
    route: '/api/images',
    statuses: anySignedIn(201),
    request: async () => {
      const { payload, headers } = await multipartPayload({}, [{ data: await pngImage(40, 30), filename: 'chair.png', type: 'image/png' }]);
      return { url: '/api/images', payload, headers };
    },
  },

  // ---------------------------------------------------------------- live events
  // The polling answer (the stream, which any other Accept opens, stays open and is tested on its own).
  { method: 'GET', route: '/api/events', statuses: anySignedIn(200), request: () => ({ url: '/api/events', headers: { accept: 'application/json' } }) },
  { method: 'POST', route: '/api/events/ticket', statuses: anySignedIn(201) },

  // ---------------------------------------------------------------- admin
  { method: 'GET', route: '/api/allBuyer', statuses: [401, 403, 403, 403, 403, 200, 401, 401] },
  { method: 'GET', route: '/api/allSeller', statuses: [401, 403, 403, 403, 403, 200, 401, 401] },
  { method: 'GET', route: '/api/allAdmin', statuses: [401, 403, 403, 403, 403, 200, 401, 401] },
  {
    method: 'DELETE',
    route: '/api/deleteUser',
    statuses: [401, 403, 403, 403, 403, 200, 401, 401],
    request: async () => ({ url: `/api/deleteUser?email=${(await freshAccount('buyer')).email}` }),
  },
  {
    method: 'PATCH',
    route: '/api/verifyUser',
    statuses: [401, 403, 403, 403, 403, 200, 401, 401],
    request: async () => ({ url: `/api/verifyUser?email=${(await freshAccount('seller')).email}` }),
  },
  {
    method: 'PATCH',
    route: '/api/unverifyUser',
    statuses: [401, 403, 403, 403, 403, 200, 401, 401],
    request: async () => ({ url: `/api/unverifyUser?email=${(await freshAccount('seller')).email}` }),
  },
  {
    method: 'PATCH',
    route: '/api/removeAdmin',
    statuses: [401, 403, 403, 403, 403, 200, 401, 401],
    request: async () => ({ url: `/api/removeAdmin?email=${(await freshAccount('admin')).email}` }),
  },
  {
    method: 'PATCH',
    route: '/api/makeNewAdmin',
    statuses: [401, 403, 403, 403, 403, 200, 401, 401],
    request: async () => ({ url: `/api/makeNewAdmin?email=${(await freshAccount('buyer')).email}` }),
  },
  { method: 'GET', route: '/api/admin/audit', statuses: [401, 403, 403, 403, 403, 200, 401, 401] },

  // ---------------------------------------------------------------- reports and moderation
  // Anyone signed in reports the seller's listing, except the seller, for whom it is their own (403).
  {
    method: 'POST',
    route: '/api/reports',
    statuses: [401, 201, 201, 403, 201, 201, 401, 401],
    request: async (w) => ({ url: '/api/reports', payload: { targetType: 'product', targetId: (await productOfSeller(w)).id, reason: 'other' } }),
  },
  // A message: only the other participant of its thread (the buyer) reports it; its author (the
  // seller) is refused, and anyone outside the thread, admins included, learns nothing (404).
  {
    method: 'POST',
    route: '/api/reports',
    variant: 'a message',
    statuses: [401, 201, 404, 403, 404, 404, 401, 401],
    request: async (w) => ({ url: '/api/reports', payload: { targetType: 'message', targetId: await messageOfSeller(w), reason: 'scam' } }),
  },
  // The seller's contact: the seller, admins and the buyer who booked (buyer2 did not) see it.
  {
    method: 'GET',
    route: '/api/products/:id/contact',
    statuses: [401, 200, 403, 200, 403, 200, 401, 401],
    request: async (w) => ({ url: `/api/products/${(await bookingOfBuyer(w)).productId}/contact` }),
  },
  // Reviews: the buyer of a closed sale reviews it (the seller could too, but it is the buyer's booking that is built).
  {
    method: 'POST',
    route: '/api/reviews',
    statuses: [401, 201, 404, 201, 404, 404, 401, 401],
    request: async (w) => ({ url: '/api/reviews', payload: { bookingId: (await closedSaleOfBuyer(w)).id, rating: 5, text: 'As described' } }),
  },
  {
    method: 'PATCH',
    route: '/api/reviews/:id',
    statuses: [401, 200, 404, 404, 404, 404, 401, 401],
    request: async (w) => {
      const booking = await closedSaleOfBuyer(w);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/reviews',
        headers: await w.as('buyer'),
        payload: { bookingId: booking.id, rating: 4, text: 'Good' },
      });
      return { url: `/api/reviews/${created.json().data.id}`, payload: { rating: 5, text: 'Very good' } };
    },
  },
  // One's own review of a sale: its buyer and its seller (null before they write one); nobody else.
  {
    method: 'GET',
    route: '/api/bookings/:id/review',
    statuses: [401, 200, 404, 200, 404, 404, 401, 401],
    request: async (w) => ({ url: `/api/bookings/${(await closedSaleOfBuyer(w)).id}/review` }),
  },
  { method: 'GET', route: '/api/sellers/:id', statuses: everyone(200), request: (w) => ({ url: `/api/sellers/${w.users.seller.id}` }) },
  { method: 'GET', route: '/api/admin/reports', statuses: [401, 403, 403, 403, 403, 200, 401, 401] },
  // The thread around a reported message: admins only, not even the thread's participants.
  {
    method: 'GET',
    route: '/api/admin/reports/:id/context',
    statuses: [401, 403, 403, 403, 403, 200, 401, 401],
    request: async (w) => {
      const reported = await t.app.inject({
        method: 'POST',
        url: '/api/reports',
        headers: await w.as('buyer'),
        payload: { targetType: 'message', targetId: await messageOfSeller(w), reason: 'scam' },
      });
      return { url: `/api/admin/reports/${reported.json().data.id}/context` };
    },
  },
  {
    method: 'POST',
    route: '/api/admin/reports/:id/actions',
    statuses: [401, 403, 403, 403, 403, 200, 401, 401],
    request: async (w) => {
      const reported = await t.app.inject({
        method: 'POST',
        url: '/api/reports',
        headers: await w.as('buyer2'),
        payload: { targetType: 'product', targetId: (await productOfSeller(w)).id, reason: 'other' },
      });
      return { url: `/api/admin/reports/${reported.json().data.id}/actions`, payload: { action: 'dismiss', reason: 'Nothing wrong' } };
    },
  },
  // Only the listing's seller appeals its hiding.
  {
    method: 'POST',
    route: '/api/products/:id/appeal',
    statuses: [401, 403, 403, 201, 403, 403, 401, 401],
    request: async (w) => ({ url: `/api/products/${(await hiddenProductOfSeller(w)).id}/appeal`, payload: { text: 'The photos are mine' } }),
  },
  {
    method: 'POST',
    route: '/api/admin/appeals/:id/answer',
    statuses: [401, 403, 403, 403, 403, 200, 401, 401],
    request: async (w) => {
      const hidden = await hiddenProductOfSeller(w);
      const [appeal] = await t.db.insert(listingAppeals).values({ productId: hidden.id, hiddenAt: hidden.moderatedAt!, text: 'The photos are mine' }).returning();
      return { url: `/api/admin/appeals/${appeal!.id}/answer`, payload: { answer: 'keep', reason: 'The photos are a shop’s' } };
    },
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/lift-suspension',
    statuses: [401, 403, 403, 403, 403, 200, 401, 401],
    request: async () => {
      const account = await freshAccount('seller');
      await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, account.id));
      return { url: `/api/admin/users/${account.id}/lift-suspension`, payload: { reason: 'Paid back the buyer' } };
    },
  },
];

// ---------------------------------------------------------------- callers

const world = {} as World;
const authorization = {} as Record<Caller, Record<string, string>>;

/** A token the app signed, but whose subject was changed afterwards to the admin's. */
function tamperedToken(token: string, subject: string): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
  const forged = Buffer.from(JSON.stringify({ ...claims, sub: subject })).toString('base64url');
  return [header, forged, signature].join('.');
}

beforeAll(async () => {
  const [buyer, buyer2, seller, seller2, admin] = await Promise.all([
    createUser(t.db, { role: 'buyer', password: null }),
    createUser(t.db, { role: 'buyer', password: null }),
    createUser(t.db, { role: 'seller', password: null }),
    createUser(t.db, { role: 'seller', password: null }),
    createUser(t.db, { role: 'admin', password: null }),
  ]);
  world.users = { buyer: buyer!, buyer2: buyer2!, seller: seller!, seller2: seller2!, admin: admin! };
  world.categoryId = (await createCategory(t.db)).id;
  world.as = (account) => bearer(t.app, world.users[account].id);

  // Issued an hour ago by the app's own key: it expired 55 minutes ago.
  const anHourAgo = await createAccessTokens(t.db, {
    secret: t.config.jwtSecret,
    now: () => new Date(Date.now() - 60 * 60 * 1000),
  });
  authorization.anonymous = {};
  for (const account of ['buyer', 'buyer2', 'seller', 'seller2', 'admin'] as const) authorization[account] = await world.as(account);
  authorization.expired = { authorization: `bearer ${await anHourAgo.issue({ userId: admin!.id, sessionId: randomUUID() })}` };
  const buyerToken = authorization.buyer.authorization!.split(' ')[1]!;
  authorization.tampered = { authorization: `bearer ${tamperedToken(buyerToken, admin!.id)}` };
});

// ---------------------------------------------------------------- the matrix

describe('authorization matrix', () => {
  it('has exactly one row for every /api route the app serves', () => {
    const served = t.app.apiRoutes.filter((r) => r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`);
    const rows = matrix.map((r) => `${r.method} ${r.route}${r.variant ? ` (${r.variant})` : ''}`);
    expect(served.filter((route) => !rows.includes(route)), 'routes without a row in the matrix').toEqual([]);
    expect(rows.filter((row, i) => rows.indexOf(row) !== i), 'rows listed twice').toEqual([]);
    const stale = matrix.filter((r) => !t.app.hasRoute({ method: r.method, url: r.route }));
    expect(stale.map((r) => `${r.method} ${r.route}`), 'rows for routes the app does not serve').toEqual([]);
  });

  it('checks the expired and tampered tokens against the real key', async () => {
    // Both must fail for what they are, not for being garbage: the same token unaltered works.
    const valid = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authorization.buyer });
    expect(valid.statusCode).toBe(200);
    const expired = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authorization.expired });
    expect(expired.json()).toEqual({ success: false, message: 'Your session has expired. Sign in again.' });
    const tampered = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authorization.tampered });
    expect(tampered.json()).toEqual({ success: false, message: 'Invalid token. Sign in again.' });
  });

  describe.each(matrix.map((row) => ({ ...row, variant: row.variant ?? '' })))('$method $route $variant', (row) => {
    it.each(callers.map((caller, i) => [caller, row.statuses[i]!] as const))('%s → %i', async (caller, expected) => {
      const cell = row.request ? await row.request(world) : { url: row.route };
      const response = await t.app.inject({
        ...cell,
        method: row.method,
        headers: { ...cell.headers, ...authorization[caller] },
      });
      await row.after?.(world);
      expect(response.statusCode, response.body).toBe(expected);
      if (expected === 401 || expected === 403) expect(response.json()).toMatchObject({ success: false, message: expect.any(String) });
    });
  });
});
