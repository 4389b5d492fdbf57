import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTING_EXPIRY_REMINDER_DAYS, LISTING_LIFETIME_DAYS } from '@furniture/contract';
import { bearer, testConfig } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { buildApp, type App } from '../app.ts';
import { createCategory, createUser } from '../demo/factories.ts';
import { liveEvents } from '../db/schema/index.ts';
import { advanceJobClock, nextOutcome } from '../jobs/job-clock.ts';
import { enqueueJob } from '../jobs/job-queue.ts';
import { expireListingTask, remindListingExpiryTask } from '../products/listing-expiry.ts';
import { listingStep, productRow } from '../../test/sale-fixtures.ts';

/**
 * Listings expire 60 days after posting (or their last edit or renewal), and their sellers are
 * reminded 7 days before: jobs in the queue, tested by moving the queue's clock.
 */

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const config = testConfig();
let database: TestDatabase;
let app: App;

const startApp = async () => {
  const started = await buildApp({ config, db: database.db, jobs: { recurring: false } });
  await started.ready();
  return started;
};

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

/** A seller lists a piece through the API, as the web app does. */
async function listPiece() {
  const seller = await createUser(database.db, { role: 'seller' });
  const category = await createCategory(database.db);
  const headers = await bearer(app, seller.id);
  const response = await app.inject({
    method: 'POST',
    url: '/api/addProduct',
    headers,
    payload: {
      categoryId: category.id,
      condition: 'Good',
      productName: 'Teak sideboard',
      yearsOfUsedProduct: '3 years',
      originalPrice: 900,
      resalePrice: 400,
      description: 'Three drawers',
      phone: '01712345678',
      location: 'Banani',
      productImage: 'https://images.example.com/sideboard.webp',
    },
  });
  expect(response.statusCode).toBe(201);
  return { seller, headers, productId: response.json().data._id as string };
}

async function jobIdOf(key: string): Promise<string> {
  const { rows } = await database.db.execute<{ id: string }>(sql`select id::text from graphile_worker.jobs where key = ${key}`);
  return rows[0]!.id;
}

const ranJob = (server: App, id: string) => nextOutcome(server, (outcome) => outcome.id === id && outcome.status === 'succeeded');

async function remindersOf(sellerId: string) {
  return database.db
    .select()
    .from(liveEvents)
    .where(and(eq(liveEvents.userId, sellerId), eq(liveEvents.type, 'listing.expires-soon')));
}

describe('listing expiry', () => {
  it('reminds the seller 7 days before, expires the listing at 60 days, and a renewal brings it back', async () => {
    const { seller, headers, productId } = await listPiece();
    const reminderJob = await jobIdOf(`listing-expiry-reminder:${productId}`);
    const expiryJob = await jobIdOf(`listing-expiry:${productId}`);

    const reminded = ranJob(app, reminderJob);
    await advanceJobClock(database.db, (LISTING_LIFETIME_DAYS - LISTING_EXPIRY_REMINDER_DAYS) * DAY + 60_000);
    await reminded;
    expect((await remindersOf(seller.id)).map((event) => event.data)).toEqual([
      expect.objectContaining({ productId, productName: 'Teak sideboard', sellerId: seller.id }),
    ]);
    expect(await productRow(database.db, productId)).toMatchObject({ state: 'available' });

    const expired = ranJob(app, expiryJob);
    await advanceJobClock(database.db, LISTING_EXPIRY_REMINDER_DAYS * DAY);
    await expired;
    expect(await productRow(database.db, productId)).toMatchObject({ state: 'expired', inStock: 'sold' });
    // Gone, not unknown: its page says so.
    expect((await app.inject({ method: 'GET', url: `/api/products/${productId}` })).statusCode).toBe(410);
    const mine = await app.inject({ method: 'GET', url: `/api/myProducts?email=${seller.email}`, headers });
    expect(mine.json().data).toEqual([expect.objectContaining({ _id: productId, state: 'expired' })]);

    expect((await listingStep(app, headers, productId, 'renew')).statusCode).toBe(200);
    expect(await productRow(database.db, productId)).toMatchObject({ state: 'available', inStock: 'available' });
    expect((await app.inject({ method: 'GET', url: `/api/products/${productId}` })).statusCode).toBe(200);
  });

  it('a renewal moves the expiry: the listing outlives its first 60 days, and a job scheduled for the old expiry does nothing', async () => {
    const { headers, productId } = await listPiece();
    await advanceJobClock(database.db, 30 * DAY);
    expect((await listingStep(app, headers, productId, 'renew')).statusCode).toBe(200);
    await advanceJobClock(database.db, 31 * DAY);

    const { rows } = await database.db.execute<{ due: boolean }>(
      sql`select run_at <= now() as due from graphile_worker.jobs where key = ${`listing-expiry:${productId}`}`,
    );
    expect(rows).toEqual([{ due: false }]);

    // A stale job (one for the expiry before the renewal) leaves the listing alone. Each is added
    // to run an hour from now and reached by the clock, so that its run is listened for before it
    // can start (added to run at once, it could be done before `enqueueJob` answered).
    const inAnHour = { runAt: new Date(Date.now() + HOUR) };
    const stale = await enqueueJob(database.db, expireListingTask, { productId, expiresAt: new Date(Date.now() - DAY).toISOString() }, inAnHour);
    const staleRan = ranJob(app, stale.id);
    await advanceJobClock(database.db, HOUR);
    await staleRan;
    const staleReminder = await enqueueJob(database.db, remindListingExpiryTask, { productId, expiresAt: new Date().toISOString() }, inAnHour);
    const staleReminderRan = ranJob(app, staleReminder.id);
    await advanceJobClock(database.db, HOUR);
    await staleReminderRan;
    expect(await productRow(database.db, productId)).toMatchObject({ state: 'available' });
  });

  it('a withdrawn or sold listing has no expiry left to run', async () => {
    const { headers, productId } = await listPiece();
    await listingStep(app, headers, productId, 'withdraw');
    const { rows } = await database.db.execute(sql`select 1 from graphile_worker.jobs where key like ${`%:${productId}`}`);
    expect(rows).toEqual([]);
  });

  it('an expiry survives a restart: scheduled by one app, run by the next after the time has passed', async () => {
    const { productId } = await listPiece();
    const expiryJob = await jobIdOf(`listing-expiry:${productId}`);
    await app.close();

    app = await startApp();
    const expired = ranJob(app, expiryJob);
    await advanceJobClock(database.db, LISTING_LIFETIME_DAYS * DAY + 60_000);
    await expired;
    expect(await productRow(database.db, productId)).toMatchObject({ state: 'expired' });
  });
});
