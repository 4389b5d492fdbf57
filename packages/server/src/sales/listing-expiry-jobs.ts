import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { products } from '../db/schema/index.ts';
import { expireListingTask, remindListingExpiryTask } from '../products/listing-expiry.ts';
import { notifyListingExpiresSoon } from './sale-notifications.ts';
import { expireListing } from './sale-transitions.ts';

/** What the expiry and reminder jobs do: each acts only if the listing still expires when the job was scheduled for. */
export function registerListingExpiry(app: FastifyInstance) {
  app.jobs.handle(expireListingTask, async ({ productId, expiresAt }) => {
    await app.db.transaction((tx) => expireListing(tx, productId, expiresAt));
  });
  app.jobs.handle(remindListingExpiryTask, async ({ productId, expiresAt }) => {
    await app.db.transaction(async (tx) => {
      const [listing] = await tx
        .select({ sellerId: products.sellerId, productName: products.productName })
        .from(products)
        .where(
          and(
            eq(products.id, productId),
            eq(products.state, 'available'),
            sql`date_trunc('milliseconds', ${products.expiresAt}) = date_trunc('milliseconds', ${expiresAt}::timestamptz)`,
          ),
        )
        .for('update');
      if (listing) await notifyListingExpiresSoon(tx, { ...listing, productId, expiresAt });
    });
  });
}
