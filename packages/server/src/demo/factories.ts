import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type BookingStatus, type Capability, type Condition, type ListingState, roleCapabilities, type UserRole } from '@furniture/contract';
import { loadConfig } from '../config.ts';
import { hashPassword } from '../users/passwords.ts';
import type { Executor } from '../db/client.ts';
import { bookings, categories, payments, products, reviews, users, wishes } from '../db/schema/index.ts';
import { platformFeeSql } from '../ledger/ledger.ts';

/**
 * Factories with overrides, shared by the tests and the demo data. Each makes a valid row with
 * unique values, so a caller only states what matters to it.
 */

const unique = () => randomBytes(4).toString('hex');

export const DEFAULT_TEST_PASSWORD = 'Secret123';
/**
 * The authenticator app's secret of the admins tests make, unless they say otherwise: admin pages
 * need two-step sign-in (decision 38), and tests make its codes with otplib.
 */
export const TEST_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export async function createUser(
  db: Executor,
  overrides: Partial<{
    name: string;
    email: string;
    role: UserRole;
    /** What the account may do; by default, what its role gives. */
    capabilities: Capability[];
    verified: boolean;
    emailVerified: boolean;
    image: string | null;
    password: string | null;
    /** The authenticator app's secret: by default TEST_TOTP_SECRET for an admin, none for others. */
    totpSecret: string | null;
  }> = {},
) {
  const id = unique();
  const password = overrides.password === undefined ? DEFAULT_TEST_PASSWORD : overrides.password;
  const capabilities = overrides.capabilities ?? [...roleCapabilities[overrides.role ?? 'buyer']];
  const totpSecret = overrides.totpSecret === undefined ? (capabilities.includes('admin') ? TEST_TOTP_SECRET : null) : overrides.totpSecret;
  const [user] = await db
    .insert(users)
    .values({
      name: overrides.name ?? `User ${id}`,
      email: (overrides.email ?? `user-${id}@example.com`).toLowerCase(),
      role: overrides.role ?? 'buyer',
      capabilities,
      verified: overrides.verified ?? false,
      emailVerified: overrides.emailVerified ?? true,
      image: overrides.image === undefined ? `https://images.example.com/${id}.webp` : overrides.image,
      passwordHash: password === null ? null : await hashPassword(password),
      totpSecret,
    })
    .returning();
  return user!;
}

export async function createCategory(
  db: Executor,
  overrides: Partial<{ categoryName: string; description: string; image: string }> = {},
) {
  const id = unique();
  const [category] = await db
    .insert(categories)
    .values({
      categoryName: overrides.categoryName ?? `Category ${id}`,
      description: overrides.description ?? 'Furniture of one kind',
      image: overrides.image ?? `https://images.example.com/category-${id}.webp`,
    })
    .returning();
  return category!;
}

export async function createProduct(
  db: Executor,
  refs: { categoryId: string; sellerId: string },
  overrides: Partial<{
    productName: string;
    condition: Condition;
    originalPrice: string;
    resalePrice: string;
    advertisement: boolean;
    /** The specification's field; 'sold' means the sold state unless `state` says otherwise. */
    inStock: 'available' | 'sold';
    state: ListingState;
    productImage: string;
    yearsOfUsedProduct: string;
    description: string;
    location: string;
    phone: string;
    postedAt: Date;
    photos: string[];
    /** When a sold product was sold; now by default. */
    soldAt: Date;
    measurements: { widthCm: number; depthCm: number; heightCm: number } | null;
  }> = {},
) {
  const id = unique();
  const productImage = overrides.productImage ?? overrides.photos?.[0] ?? `https://images.example.com/product-${id}.webp`;
  const state = overrides.state ?? (overrides.inStock === 'sold' ? 'sold' : 'available');
  const [product] = await db
    .insert(products)
    .values({
      ...refs,
      productName: overrides.productName ?? `Product ${id}`,
      condition: overrides.condition ?? 'Good',
      yearsOfUsedProduct: overrides.yearsOfUsedProduct ?? '2 years',
      originalPrice: overrides.originalPrice ?? '300.00',
      resalePrice: overrides.resalePrice ?? '150.00',
      description: overrides.description ?? 'Solid and clean',
      phone: overrides.phone ?? '01700000000',
      location: overrides.location ?? 'Dhaka',
      productImage,
      photos: overrides.photos ?? [productImage],
      widthCm: overrides.measurements?.widthCm ?? null,
      depthCm: overrides.measurements?.depthCm ?? null,
      heightCm: overrides.measurements?.heightCm ?? null,
      advertisement: overrides.advertisement ?? false,
      state,
      inStock: state === 'available' ? 'available' : 'sold',
      postedAt: overrides.postedAt,
      soldAt: overrides.soldAt,
    })
    .returning();
  return product!;
}

export async function createWish(db: Executor, refs: { buyerId: string; productId: string }) {
  const [wish] = await db.insert(wishes).values(refs).returning();
  return wish!;
}

export async function createBooking(
  db: Executor,
  product: { id: string; productName: string; productImage: string; resalePrice: string },
  buyerId: string,
  overrides: Partial<{ phoneNumber: string; location: string; paymentStatus: 'unpaid' | 'paid'; status: BookingStatus }> = {},
) {
  const [booking] = await db
    .insert(bookings)
    .values({
      buyerId,
      productId: product.id,
      productName: product.productName,
      productImage: product.productImage,
      productPrice: product.resalePrice,
      // The fee of the default configuration, as a booking made now would have.
      feeCents: platformFeeSql(sql`${product.resalePrice}::numeric`, loadConfig({}).fee),
      phoneNumber: overrides.phoneNumber ?? '01711111111',
      location: overrides.location ?? 'Gulshan 1',
      paymentStatus: overrides.paymentStatus ?? 'unpaid',
      status: overrides.status ?? (overrides.paymentStatus === 'paid' ? 'paid' : 'open'),
    })
    .returning();
  return booking!;
}

/** A buyer's review of a product's seller, after a closed (paid and handed over) booking of it. */
export async function createReview(
  db: Executor,
  product: { id: string; productName: string; productImage: string; resalePrice: string; sellerId: string },
  buyerId: string,
  rating: number,
) {
  const booking = await createBooking(db, product, buyerId, { paymentStatus: 'paid', status: 'closed' });
  const [review] = await db
    .insert(reviews)
    .values({ bookingId: booking.id, authorId: buyerId, subjectId: product.sellerId, authorRole: 'buyer', rating, text: '' })
    .returning();
  return review!;
}

/** A payment recorded for a booking, as the payment flow stores a sale. */
export async function createPayment(
  db: Executor,
  booking: { id: string; buyerId: string; productId: string | null; productName: string; productPrice: string },
  overrides: Partial<{ provider: string; transactionId: string; status: string; buyerName: string; buyerEmail: string }> = {},
) {
  const [payment] = await db
    .insert(payments)
    .values({
      provider: overrides.provider ?? 'simulated',
      transactionId: overrides.transactionId ?? `pi_sim_${unique()}${unique()}`,
      bookingId: booking.id,
      productId: booking.productId,
      buyerId: booking.buyerId,
      buyerName: overrides.buyerName ?? 'Buyer',
      buyerEmail: overrides.buyerEmail ?? 'buyer@example.com',
      productName: booking.productName,
      amountCents: Math.round(Number(booking.productPrice) * 100),
      currency: 'usd',
      status: overrides.status ?? 'succeeded',
    })
    .returning();
  return payment!;
}

