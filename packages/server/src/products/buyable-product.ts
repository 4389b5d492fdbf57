import { serverMessages } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import type { UserRow } from '../users/user-repository.ts';
import { lockProduct } from './product-repository.ts';

/**
 * Checks, inside the caller's transaction, that a product can be wished for or booked by this
 * buyer, and holds it so it cannot be sold or deleted before the transaction ends.
 */
export async function requireBuyableProduct(tx: Executor, productId: string, buyer: Pick<UserRow, 'id'>, action: string) {
  const found = await lockProduct(tx, productId);
  // A listing an admin took down is, to buyers, not there at all, as on its public page.
  if (!found || found.moderation) throw notFound(serverMessages.products.notFound);
  if (found.sellerId === buyer.id) throw forbidden(serverMessages.products.notYours(action));
  if (found.inStock !== 'available') throw conflict(serverMessages.products.unavailable);
  return found;
}
