import { and, desc, eq } from 'drizzle-orm';
import type { Wish } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { categories, products, users, wishes } from '../db/schema/index.ts';
import type { Page } from '../http/pagination.ts';
import { productColumns, toProduct, type ProductRecord } from '../products/product-repository.ts';

/** A wish reads as its product (seller joined as the product's seller), with its own id. */
const selectWishes = (db: Executor) =>
  db
    .select({ wishId: wishes.id, ...productColumns })
    .from(wishes)
    .innerJoin(products, eq(products.id, wishes.productId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(users, eq(users.id, products.sellerId));

export function toWish(row: ProductRecord & { wishId: string }): Wish {
  return { ...toProduct(row), _id: row.wishId, productId: row.id };
}

/** A buyer's wishes, newest first, sold products included; served by the (buyer, created) index. */
export async function listWishesOfBuyer(db: Executor, buyerId: string, page: Page): Promise<Wish[]> {
  const rows = await selectWishes(db)
    .where(eq(wishes.buyerId, buyerId))
    .orderBy(desc(wishes.createdAt), desc(wishes.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(toWish);
}

/** Adds a wish; answers undefined when the buyer already wishes for this product. */
export async function insertWish(db: Executor, buyerId: string, productId: string): Promise<string | undefined> {
  const [row] = await db.insert(wishes).values({ buyerId, productId }).onConflictDoNothing().returning({ id: wishes.id });
  return row?.id;
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
