import { eq } from 'drizzle-orm';
import type { App } from '../src/app.ts';
import type { Executor } from '../src/db/client.ts';
import { createBooking, createCategory, createProduct, createUser } from '../src/demo/factories.ts';
import { bookings, products } from '../src/db/schema/index.ts';
import { bearer } from './app.ts';
import { payByCard, postPayment } from './payment-fixtures.ts';

/** Test helpers of the sale's steps, shared by the sales test files. */

type Headers = Record<string, string>;

interface SaleOptions {
  resalePrice?: string;
  seller?: Awaited<ReturnType<typeof createUser>>;
  /** The buyers' password, for a browser to sign in with; none by default. */
  buyerPassword?: string;
}

/** A seller's available product booked by `buyerCount` buyers, with everyone's authorization headers. */
export async function saleOf(app: App, db: Executor, options: SaleOptions & { buyerCount?: number } = {}) {
  const seller = options.seller ?? (await createUser(db, { role: 'seller', verified: true }));
  const category = await createCategory(db);
  const product = await createProduct(db, { categoryId: category.id, sellerId: seller.id }, { resalePrice: options.resalePrice ?? '150.00' });
  const buyers = [];
  for (let i = 0; i < (options.buyerCount ?? 1); i++) {
    const user = await createUser(db, { role: 'buyer', password: options.buyerPassword ?? null });
    buyers.push({ user, booking: await createBooking(db, product, user.id), headers: await bearer(app, user.id) });
  }
  return { seller, sellerHeaders: await bearer(app, seller.id), category, product, buyers };
}

export async function bookingStep(app: App, headers: Headers, bookingId: string, action: string, payload?: object) {
  return app.inject({ method: 'POST', url: `/api/bookings/${bookingId}/${action}`, headers, ...(payload ? { payload } : {}) });
}

export async function listingStep(app: App, headers: Headers, productId: string, action: string) {
  return app.inject({ method: 'POST', url: `/api/products/${productId}/${action}`, headers });
}

export async function bookingRow(db: Executor, id: string) {
  const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
  return row!;
}

export async function productRow(db: Executor, id: string) {
  const [row] = await db.select().from(products).where(eq(products.id, id));
  return row!;
}

/** A sale of `resalePrice` paid by card (by the simulated provider) and posted, with everyone's headers. */
export async function paidSaleOf(app: App, db: Executor, options: SaleOptions = {}) {
  const sale = await saleOf(app, db, options);
  const { booking, headers } = sale.buyers[0]!;
  const { transactionId } = await payByCard(app, headers, booking.id);
  const posted = await postPayment(app, headers, { transactionId, productId: sale.product.id, bookingId: booking.id });
  if (posted.statusCode !== 200) throw new Error(`payment answered ${posted.statusCode}: ${posted.body}`);
  return { ...sale, booking, buyerHeaders: headers };
}

/** A paid sale whose buyer confirmed receipt: its money is released to the seller. */
export async function releasedSaleOf(app: App, db: Executor, options: SaleOptions = {}) {
  const sale = await paidSaleOf(app, db, options);
  const received = await bookingStep(app, sale.buyerHeaders, sale.booking.id, 'received');
  if (received.statusCode !== 200) throw new Error(`received answered ${received.statusCode}: ${received.body}`);
  return sale;
}
