import { inArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { images } from '../db/schema/index.ts';
import { thumbnailKeyOf, type ImageStore } from './image-store.ts';

export type ImageRow = typeof images.$inferSelect;

export async function recordImage(
  db: Executor,
  image: { key: string; url: string; uploaderId: string | null; width: number; height: number; bytes: number },
): Promise<ImageRow> {
  const [row] = await db.insert(images).values(image).returning();
  return row!;
}

/** Deletes images (and their thumbnails) from the store, then their rows. */
export async function deleteImages(db: Database, store: ImageStore, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await store.remove(keys.flatMap((key) => [key, thumbnailKeyOf(key)]));
  await db.delete(images).where(inArray(images.key, [...keys]));
}

export interface SweepOptions {
  /** Only images older than this may go: an upload is referenced a moment after it is made. */
  graceSeconds: number;
  /** At most this many per run; the next run takes the rest. */
  batchSize: number;
}

export const DEFAULT_SWEEP: SweepOptions = { graceSeconds: 60 * 60, batchSize: 200 };

/**
 * Removes stored images that nothing refers to: no user photo, category image, product image or
 * booking's copy of a product image. A reference is any URL ending in the image's key, so the
 * check holds whichever public address the image was served from.
 *
 * Safe on several app servers at once: each run locks the rows it takes with SKIP LOCKED, so two
 * runs never take the same image, and the rows go only after their files did (a failed file
 * deletion rolls the run back and the next run tries again).
 */
export async function sweepOrphanImages(
  db: Database,
  store: ImageStore,
  options: SweepOptions = DEFAULT_SWEEP,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: string; key: string }>(sql`
      select i.id, i.key
      from images i
      where i.created_at < now() - make_interval(secs => ${options.graceSeconds})
        and not exists (select 1 from users u where right(u.image, length(i.key) + 1) = '/' || i.key)
        and not exists (select 1 from categories c where right(c.image, length(i.key) + 1) = '/' || i.key)
        and not exists (select 1 from products p where right(p.product_image, length(i.key) + 1) = '/' || i.key)
        and not exists (select 1 from bookings b where right(b.product_image, length(i.key) + 1) = '/' || i.key)
      order by i.created_at
      limit ${options.batchSize}
      for update of i skip locked
    `);
    if (rows.length === 0) return [];
    const keys = rows.map((row) => row.key);
    await store.remove(keys.flatMap((key) => [key, thumbnailKeyOf(key)]));
    await tx.delete(images).where(inArray(images.id, rows.map((row) => row.id)));
    return keys;
  });
}
