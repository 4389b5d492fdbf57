import { eq, sql } from 'drizzle-orm';
import type { Category } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { categories } from '../db/schema/index.ts';
import type { Page } from '../http/pagination.ts';

const categoryColumns = {
  id: categories.id,
  categoryName: categories.categoryName,
  description: categories.description,
  image: categories.image,
};

type CategoryRow = { id: string; categoryName: string; description: string; image: string };

export const toCategory = (row: CategoryRow): Category => ({
  _id: row.id,
  categoryName: row.categoryName,
  description: row.description,
  image: row.image,
});

/** Alphabetical, served by the unique index on the lower-cased name (unique, so the order is stable). */
export async function listCategories(db: Executor, page: Page): Promise<CategoryRow[]> {
  return db
    .select(categoryColumns)
    .from(categories)
    .orderBy(sql`lower(${categories.categoryName})`)
    .limit(page.limit)
    .offset(page.offset);
}

export async function findCategoryById(db: Executor, id: string): Promise<CategoryRow | undefined> {
  const [row] = await db.select(categoryColumns).from(categories).where(eq(categories.id, id));
  return row;
}

/** Inserts a category; answers undefined when one of the same name (in any letter case) exists. */
export async function insertCategory(
  db: Executor,
  values: { categoryName: string; description: string; image: string },
): Promise<CategoryRow | undefined> {
  const [row] = await db.insert(categories).values(values).onConflictDoNothing().returning(categoryColumns);
  return row;
}
