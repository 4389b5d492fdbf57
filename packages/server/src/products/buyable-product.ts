import { eq } from 'drizzle-orm';
import { serverMessages } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { categories, products, users } from '../db/schema/index.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import type { UserRow } from '../users/user-repository.ts';
import { productColumns } from './product-repository.ts';

/**
 * Checks, inside the caller's transaction, that a product can be wished for or booked by this
 * buyer, and holds it so it cannot be sold or deleted before the transaction ends. Answers the
 * product as listed (`ProductRecord`), so the write can answer with it without reading it again.
 */
export async function requireBuyableProduct(tx: Executor, productId: string, buyer: Pick<UserRow, 'id'>, action: string) {
  const [found] = await tx
    .select({ ...productColumns, moderation: products.moderation })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(eq(products.id, productId))
    .for('share', { of: products });
  // A listing an admin took down is, to buyers, not there at all, as on its public page.
  if (!found || found.moderation) throw notFound(serverMessages.products.notFound);
  if (found.sellerId === buyer.id) throw forbidden(serverMessages.products.notYours(action));
  if (found.inStock !== 'available') throw conflict(serverMessages.products.unavailable);
  return found;
}
