import { and, desc, eq, inArray } from 'drizzle-orm';
import type { AppealStatus, ListingAppeal } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { listingAppeals } from '../db/schema/index.ts';

export type AppealRow = typeof listingAppeals.$inferSelect;

export const toAppeal = (row: AppealRow): ListingAppeal => ({
  _id: row.id,
  id: row.id,
  productId: row.productId,
  text: row.text,
  status: row.status,
  answer: row.answer,
  createdAt: row.createdAt.toISOString(),
  answeredAt: row.answeredAt?.toISOString() ?? null,
});

/** Files the appeal of one hiding; answers undefined when that hiding was appealed already. */
export async function insertAppeal(tx: Executor, appeal: { productId: string; hiddenAt: Date; text: string }): Promise<AppealRow | undefined> {
  const [row] = await tx.insert(listingAppeals).values(appeal).onConflictDoNothing().returning();
  return row;
}

export async function lockAppeal(tx: Executor, appealId: string): Promise<AppealRow | undefined> {
  const [row] = await tx.select().from(listingAppeals).where(eq(listingAppeals.id, appealId)).for('update');
  return row;
}

/** Answers the listing's pending appeal, if it has one: the admin's act on the listing is the answer. */
export async function settlePendingAppeal(tx: Executor, productId: string, status: Exclude<AppealStatus, 'pending'>, answer: string) {
  await tx
    .update(listingAppeals)
    .set({ status, answer, answeredAt: new Date() })
    .where(and(eq(listingAppeals.productId, productId), eq(listingAppeals.status, 'pending')));
}

/** Each listing's latest appeal, by listing id. */
export async function latestAppealsOf(db: Executor, productIds: string[]): Promise<Map<string, AppealRow>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([listingAppeals.productId])
    .from(listingAppeals)
    .where(inArray(listingAppeals.productId, productIds))
    .orderBy(listingAppeals.productId, desc(listingAppeals.createdAt));
  return new Map(rows.map((row) => [row.productId, row]));
}
