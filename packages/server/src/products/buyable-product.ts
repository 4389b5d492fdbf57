import { eq, sql, type Placeholder } from 'drizzle-orm';
import { serverMessages } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { categories, products, users } from '../db/schema/index.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { productColumns } from './product-repository.ts';

/** Why a buyer may not wish for or book a product: checked in SQL, told by `requireBuyable`. */
type Refusal = 'missing' | 'own' | 'unavailable';

/**
 * The product a buyer wishes for or books, as a `product` CTE for the statement that writes the
 * wish or the booking: the product as listed (`ProductRecord`), held `for share` so it cannot be
 * sold or deleted before the statement's transaction ends, and `refusal`, why this buyer may not
 * have it (null when they may), computed from the locked row. The write inserts only
 * `where refusal is null`, so the checks and the write are one statement, and `requireBuyable`
 * turns the refusal into its answer.
 */
export function lockedProduct(db: Executor, productId: string | Placeholder, buyerId: string | Placeholder) {
  // A listing an admin took down is, to buyers, not there at all, as on its public page.
  const refusal = sql<Refusal | null>`case
    when ${products.moderation} is not null then 'missing'
    when ${products.sellerId} = ${buyerId} then 'own'
    when ${products.inStock} <> 'available' then 'unavailable' end`;
  return db.$with('product').as(
    db
      .select({
        ...productColumns,
        // Its expressions named, as a subquery's must be.
        photos: productColumns.photos.as('photos'),
        sellerRating: productColumns.sellerRating.as('seller_rating'),
        refusal: refusal.as('refusal'),
      })
      .from(products)
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .innerJoin(users, eq(users.id, products.sellerId))
      .where(eq(products.id, productId))
      .for('share', { of: products }),
  );
}

/**
 * The product as listed, read by a statement over `lockedProduct`, when this buyer may wish for or
 * book it; otherwise the refusal's answer: 404 for a product that is not there (to buyers),
 * 403 for the buyer's own, 409 for one no longer available.
 */
export function requireBuyable<Row extends { refusal: Refusal | null }>(found: Row | undefined, action: string): Row {
  if (!found || found.refusal === 'missing') throw notFound(serverMessages.products.notFound);
  if (found.refusal === 'own') throw forbidden(serverMessages.products.notYours(action));
  if (found.refusal === 'unavailable') throw conflict(serverMessages.products.unavailable);
  return found;
}
