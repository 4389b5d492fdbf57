import type { IncomingMessage } from 'node:http';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Executor } from '../db/client.ts';

/** How long views accumulate on an app server before they are added to the database in one statement. */
export const VIEW_FLUSH_INTERVAL_MS = 2_000;

/** A client that names itself a bot, crawler or spider in its User-Agent (search engines' all do). */
const CRAWLER = /bot|crawl|spider/i;

/**
 * Whether an answered request of a product's page counts as a view: a person's GET, not a HEAD
 * (a link checker's) and not a crawler's, so the count a seller sees is of people.
 */
export function isView(request: Pick<IncomingMessage, 'method' | 'headers'>): boolean {
  return request.method === 'GET' && !CRAWLER.test(request.headers['user-agent'] ?? '');
}

/**
 * A product's pages' `onAnswer` (the API's answer and the page the server renders, see
 * response-cache.ts): a person's view of the product the route's `id` names.
 */
export function countsAView(app: FastifyInstance) {
  return (request: IncomingMessage, params: Readonly<Record<string, string>>) => {
    if (isView(request)) app.productViews.count(params.id!.toLowerCase());
  };
}

/** Adds views to the products that still exist (one deleted meanwhile just loses its count). */
export async function addProductViews(db: Executor, counts: ReadonlyMap<string, number>): Promise<void> {
  if (counts.size === 0) return;
  const counted = JSON.stringify(Object.fromEntries(counts));
  await db.execute(sql`
    insert into product_views (product_id, views)
    select products.id, counted.value::int
    from jsonb_each_text(${counted}::jsonb) as counted
    join products on products.id = counted.key::uuid
    on conflict (product_id) do update set views = product_views.views + excluded.views`);
}

/**
 * Counts product page views without a write per view: each app server adds up its views and
 * writes them every two seconds and when it shuts down, so a page answered from the response
 * cache still counts, and a burst of views on one piece does not queue on its row. A crash loses
 * at most the last two seconds of views, which only inform the seller.
 */
export interface ProductViewCounter {
  count(productId: string): void;
  /** Writes what has accumulated now; resolves once every view counted before the call is in the database. */
  flush(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    productViews: ProductViewCounter;
  }
}

export const productViewsPlugin = fp(
  async (app: FastifyInstance) => {
    let pending = new Map<string, number>();
    /** The last write asked for: each waits for the one before, so a flush also waits for the timer's write under way. */
    let lastWrite = Promise.resolve();
    const flush = () => {
      const counts = pending;
      pending = new Map();
      lastWrite = lastWrite.then(() =>
        addProductViews(app.db, counts).catch((error: unknown) => app.log.warn({ err: error }, 'could not record product views')),
      );
      return lastWrite;
    };
    const timer = setInterval(() => void flush(), VIEW_FLUSH_INTERVAL_MS);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await flush();
    });
    app.decorate('productViews', {
      count(productId: string) {
        pending.set(productId, (pending.get(productId) ?? 0) + 1);
      },
      flush,
    });
  },
  { name: 'product-views' },
);
