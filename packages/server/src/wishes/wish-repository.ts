import { and, desc, eq, sql } from 'drizzle-orm';
import type { Wish } from '@furniture/contract';
import { rowVersionOf, type OwnedList } from '../db/row-versions.ts';
import { insertColumns, type Database, type Executor } from '../db/client.ts';
import { categories, products, users, wishes } from '../db/schema/index.ts';
import type { Page } from '../http/pagination.ts';
import { lockedProduct } from '../products/buyable-product.ts';
import { productColumns, toProduct, type ProductRecord } from '../products/product-repository.ts';

/** A wish reads as its product (seller joined as the product's seller), with its own id. */
const selectWishes = (db: Executor) =>
  db
    .select({ wishId: wishes.id, wishVersion: rowVersionOf(wishes), ...productColumns })
    .from(wishes)
    .innerJoin(products, eq(products.id, wishes.productId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(users, eq(users.id, products.sellerId));

export function toWish(row: ProductRecord & { wishId: string }): Wish {
  return { ...toProduct(row), _id: row.wishId, productId: row.id };
}

const ofBuyer = eq(wishes.buyerId, sql.placeholder('buyerId'));
const newestFirst = [desc(wishes.createdAt), desc(wishes.id)] as const;

/** A buyer's wishes, newest first. */
export const wishesOfBuyerList: OwnedList = { table: wishes, owner: wishes.buyerId, createdAt: wishes.createdAt, id: wishes.id };

/**
 * The read of a page of a buyer's wishes, newest first, sold products included (the (buyer,
 * created) index), with each wish's version, prepared once for a database handle: parsed and
 * planned once per connection instead of once per request.
 */
export function prepareWishesOfBuyer(db: Database) {
  const list = selectWishes(db)
    .where(ofBuyer)
    .orderBy(...newestFirst)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('wishes_of_buyer');
  return async (buyerId: string, page: Page) => {
    const rows = await list.execute({ buyerId, ...page });
    return { wishes: rows.map(toWish), rowVersions: rows.map((row) => ({ id: row.wishId, version: row.wishVersion })) };
  };
}

/**
 * Adds a buyer's wish in one statement, prepared once for a database handle and run on its own (no
 * transaction around it): the product locked and the buyer's refusal read from it
 * (`lockedProduct`), and the wish inserted only when there is none. Answers the product with
 * `refusal` and the new wish's id, null when the buyer already wishes for it; no row for an
 * unknown product.
 */
export function prepareAddWish(db: Database) {
  const product = lockedProduct(db, sql.placeholder('productId'), sql.placeholder('buyerId'));
  const added = db.$with('added', { wishId: wishes.id }).as(sql`
    insert into ${wishes} (${insertColumns(wishes.buyerId, wishes.productId)})
    select ${sql.placeholder('buyerId')}::uuid, ${product.id} from ${product} where ${product.refusal} is null
    on conflict do nothing
    returning ${wishes.id}`);
  const statement = db.with(product, added).select().from(product).leftJoin(added, sql`true`).prepare('add_wish');
  return async (buyerId: string, productId: string) => {
    const [row] = await statement.execute({ buyerId, productId });
    return row && { ...row.product, wishId: row.added?.wishId ?? null };
  };
}

/** Deletes a wish only if it is the buyer's own; answers how many rows went (0 or 1). */
export async function deleteWishOfBuyer(db: Executor, wishId: string, buyerId: string): Promise<number> {
  const deleted = await db
    .delete(wishes)
    .where(and(eq(wishes.id, wishId), eq(wishes.buyerId, buyerId)))
    .returning({ id: wishes.id });
  return deleted.length;
}

export async function deleteWishesOfBuyer(tx: Executor, buyerId: string): Promise<void> {
  await tx.delete(wishes).where(eq(wishes.buyerId, buyerId));
}
