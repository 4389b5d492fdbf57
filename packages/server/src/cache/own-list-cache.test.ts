import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serverMessages } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { verifyUser } from '../admin/admin-repository.ts';
import { buildApp, type App } from '../app.ts';
import { createDatabase } from '../db/client.ts';
import { createCategory, createProduct, createReview, createUser, createWish } from '../demo/factories.ts';
import { products, users, wishes } from '../db/schema/index.ts';
import { endAllSessions } from '../users/refresh-tokens.ts';
import { payByCard, postPayment } from '../../test/payment-fixtures.ts';
import { bookingStep, listingStep } from '../../test/sale-fixtures.ts';

const t = setupTestApp();

/** A second app server on the same database, with its own pool, listener and kept lists. */
let second: App;
let closeSecondPool: () => Promise<void>;
beforeAll(async () => {
  const { db, pool } = createDatabase(t.database.url, 3);
  second = await buildApp({ config: t.config, db, jobs: { recurring: false } });
  await second.ready();
  closeSecondPool = () => pool.end();
});
afterAll(async () => {
  await second?.close();
  await closeSecondPool?.();
});

type Headers = Record<string, string>;
type Person = { id: string; email: string };

async function signedIn(user: Person) {
  return { ...user, headers: await bearer(t.app, user.id) };
}

const buyer = async () => signedIn(await createUser(t.db, { password: null }));
const seller = async () => signedIn(await createUser(t.db, { role: 'seller', password: null }));

async function productOf(owner: Person, productName = 'Oak desk') {
  return createProduct(t.db, { categoryId: (await createCategory(t.db)).id, sellerId: owner.id }, { productName });
}

async function list<Row>(app: App, path: 'wishes' | 'booking', owner: Person, headers: Headers) {
  const response = await app.inject({ method: 'GET', url: `/api/${path}?email=${encodeURIComponent(owner.email)}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: Row[] }>().data;
}

type WishRow = { _id: string; productId: string; productName: string; resalePrice: number; inStock: string; sellerVerified: boolean; sellerRating: { average: number; count: number } | null };
type BookingRow = { _id: string; productId: string; status: string; paymentStatus: string; transactionId: string | null; inStock: string };

const wishesOn = (app: App, me: Person & { headers: Headers }) => list<WishRow>(app, 'wishes', me, me.headers);
const bookingsOn = (app: App, me: Person & { headers: Headers }) => list<BookingRow>(app, 'booking', me, me.headers);

/** Both servers' next answers, the second server's first. */
async function onBoth<Row>(read: (app: App) => Promise<Row[]>) {
  const onSecond = await read(second);
  const onFirst = await read(t.app);
  expect(onFirst).toEqual(onSecond);
  return onSecond;
}

/**
 * Changes a product without announcing it, as no code of the product can: an answer that shows
 * the old value was answered from memory.
 */
async function renameSilently(productId: string, productName: string) {
  await t.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.update(products).set({ productName }).where(eq(products.id, productId));
  });
}

describe('a buyer’s own lists, kept on each server', () => {
  it('answer again from memory while neither the buyer’s rows nor an announced table they show changed', async () => {
    const me = await buyer();
    const product = await productOf(await seller(), 'Oak desk');
    await createWish(t.db, { buyerId: me.id, productId: product.id });

    expect((await wishesOn(t.app, me))[0]!.productName).toBe('Oak desk');
    await renameSilently(product.id, 'Renamed unannounced');
    expect((await wishesOn(t.app, me))[0]!.productName).toBe('Oak desk');

    await t.db.update(products).set({ resalePrice: '99.00' }).where(eq(products.id, product.id));
    expect((await wishesOn(t.app, me))[0]).toMatchObject({ productName: 'Renamed unannounced', resalePrice: 99 });
  });

  it('send a kept answer with the headers it was first sent with: its type and the next page', async () => {
    const me = await buyer();
    const owner = await seller();
    const [older, newer] = [await productOf(owner, 'Older'), await productOf(owner, 'Newer')];
    for (const product of [older, newer]) await createWish(t.db, { buyerId: me.id, productId: product.id });
    const url = `/api/wishes?email=${encodeURIComponent(me.email)}&limit=1`;
    const first = await t.app.inject({ method: 'GET', url, headers: me.headers });
    expect(first.json().data).toEqual([expect.objectContaining({ productName: 'Newer' })]);
    await renameSilently(newer.id, 'Renamed unannounced');

    const kept = await t.app.inject({ method: 'GET', url, headers: me.headers });
    expect(kept.body).toBe(first.body);
    expect(kept.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(kept.headers.link).toBe(first.headers.link);
    expect(kept.headers.link).toContain('page=2');
  });

  it('show a wish added or removed through one server on the next read of both', async () => {
    const me = await buyer();
    const product = await productOf(await seller());
    expect(await onBoth((app) => wishesOn(app, me))).toEqual([]);

    const added = await t.app.inject({ method: 'POST', url: '/api/addWish', headers: me.headers, payload: { productId: product.id } });
    expect(added.statusCode).toBe(201);
    expect(await onBoth((app) => wishesOn(app, me))).toEqual([expect.objectContaining({ productId: product.id })]);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/wishDelete?id=${added.json().data._id}`, headers: me.headers });
    expect(removed.statusCode).toBe(200);
    expect(await onBoth((app) => wishesOn(app, me))).toEqual([]);
  });

  it('show a wish removed and another added in one transaction, the count unchanged', async () => {
    const me = await buyer();
    const owner = await seller();
    const [first, second] = [await productOf(owner, 'First'), await productOf(owner, 'Second')];
    await createWish(t.db, { buyerId: me.id, productId: first.id });
    expect((await onBoth((app) => wishesOn(app, me))).map((wish) => wish.productName)).toEqual(['First']);

    await t.db.transaction(async (tx) => {
      await tx.delete(wishes).where(eq(wishes.buyerId, me.id));
      await createWish(tx, { buyerId: me.id, productId: second.id });
    });
    expect((await onBoth((app) => wishesOn(app, me))).map((wish) => wish.productName)).toEqual(['Second']);
  });

  it('show a product edited or sold, its seller verified and a review of the seller on the next read of both', async () => {
    const me = await buyer();
    const owner = await seller();
    const product = await productOf(owner, 'Oak desk');
    await createWish(t.db, { buyerId: me.id, productId: product.id });
    expect(await onBoth((app) => wishesOn(app, me))).toEqual([
      expect.objectContaining({ productName: 'Oak desk', inStock: 'available', sellerVerified: false, sellerRating: null }),
    ]);

    const edited = await t.app.inject({ method: 'PATCH', url: `/api/products/${product.id}`, headers: owner.headers, payload: { productName: 'Walnut desk' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await onBoth((app) => wishesOn(app, me)))[0]!.productName).toBe('Walnut desk');

    await verifyUser(t.db, owner.id);
    expect((await onBoth((app) => wishesOn(app, me)))[0]!.sellerVerified).toBe(true);

    await createReview(t.db, await productOf(owner, 'Sold before'), (await buyer()).id, 4);
    expect((await onBoth((app) => wishesOn(app, me)))[0]!.sellerRating).toEqual({ average: 4, count: 1 });

    expect((await listingStep(t.app, owner.headers, product.id, 'sold-elsewhere')).statusCode).toBe(200);
    expect((await onBoth((app) => wishesOn(app, me)))[0]!.inStock).toBe('sold');
  });

  it('show a booking made, accepted, paid, received and removed through one server on the next read of both', async () => {
    const me = await buyer();
    const owner = await seller();
    await verifyUser(t.db, owner.id);
    const product = await productOf(owner);
    expect(await onBoth((app) => bookingsOn(app, me))).toEqual([]);

    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers: me.headers,
      payload: { productId: product.id, phoneNumber: '+8801700000000', location: 'Gulshan 2 circle' },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const bookingId: string = booked.json().data._id;
    expect(await onBoth((app) => bookingsOn(app, me))).toEqual([expect.objectContaining({ _id: bookingId, status: 'open' })]);

    expect((await bookingStep(t.app, owner.headers, bookingId, 'accept')).statusCode).toBe(200);
    expect((await onBoth((app) => bookingsOn(app, me)))[0]!.status).toBe('accepted');

    const { transactionId } = await payByCard(t.app, me.headers, bookingId);
    expect((await postPayment(t.app, me.headers, { transactionId, productId: product.id, bookingId })).statusCode).toBe(200);
    expect((await onBoth((app) => bookingsOn(app, me)))[0]).toMatchObject({ status: 'paid', paymentStatus: 'paid', transactionId, inStock: 'sold' });

    expect((await bookingStep(t.app, me.headers, bookingId, 'received')).statusCode).toBe(200);
    expect((await onBoth((app) => bookingsOn(app, me)))[0]!.status).toBe('closed');
  });

  it('show a booking declined, another cancelled and one removed through one server on the next read of both', async () => {
    const me = await buyer();
    const owner = await seller();
    const [declined, cancelled, removed] = [await productOf(owner, 'Declined'), await productOf(owner, 'Cancelled'), await productOf(owner, 'Removed')];
    const idOf = async (productId: string) => {
      const booked = await t.app.inject({ method: 'POST', url: '/api/addBooking', headers: me.headers, payload: { productId, phoneNumber: '+8801700000000', location: 'Banani' } });
      expect(booked.statusCode, booked.body).toBe(201);
      return booked.json().data._id as string;
    };
    const ids = { declined: await idOf(declined.id), cancelled: await idOf(cancelled.id), removed: await idOf(removed.id) };
    const statuses = async () => Object.fromEntries((await onBoth((app) => bookingsOn(app, me))).map((booking) => [booking._id, booking.status]));
    expect(await statuses()).toEqual({ [ids.declined]: 'open', [ids.cancelled]: 'open', [ids.removed]: 'open' });

    expect((await bookingStep(t.app, owner.headers, ids.declined, 'decline', { reason: 'Sold to a neighbour' })).statusCode).toBe(200);
    expect(await statuses()).toEqual({ [ids.declined]: 'declined', [ids.cancelled]: 'open', [ids.removed]: 'open' });

    expect((await bookingStep(t.app, me.headers, ids.cancelled, 'cancel')).statusCode).toBe(200);
    expect(await statuses()).toEqual({ [ids.declined]: 'declined', [ids.cancelled]: 'cancelled', [ids.removed]: 'open' });

    expect((await t.app.inject({ method: 'DELETE', url: `/api/bookingDelete?id=${ids.removed}`, headers: me.headers })).statusCode).toBe(200);
    expect(await statuses()).toEqual({ [ids.declined]: 'declined', [ids.cancelled]: 'cancelled' });
  });

  it('never answer one buyer with another’s list; an admin reads the buyer’s own', async () => {
    const [mine, theirs] = [await buyer(), await buyer()];
    const owner = await seller();
    await createWish(t.db, { buyerId: mine.id, productId: (await productOf(owner, 'Mine')).id });
    await createWish(t.db, { buyerId: theirs.id, productId: (await productOf(owner, 'Theirs')).id });
    const names = (rows: WishRow[]) => rows.map((row) => row.productName);

    for (const app of [t.app, second, t.app]) {
      expect(names(await wishesOn(app, mine))).toEqual(['Mine']);
      expect(names(await wishesOn(app, theirs))).toEqual(['Theirs']);
      const refused = await app.inject({ method: 'GET', url: `/api/wishes?email=${encodeURIComponent(mine.email)}`, headers: theirs.headers });
      expect(refused.statusCode).toBe(403);
    }
    const admin = await createUser(t.db, { role: 'admin', password: null });
    expect(names(await list<WishRow>(second, 'wishes', mine, await bearer(t.app, admin.id)))).toEqual(['Mine']);
  });

  it('tell each of many buyers reading at once their own list, their rows read together', async () => {
    const owner = await seller();
    const buyers = await Promise.all(Array.from({ length: 6 }, () => buyer()));
    const pieces = [];
    for (const [index, me] of buyers.entries()) {
      const [first, next] = [await productOf(owner, `First of ${index}`), await productOf(owner, `Second of ${index}`)];
      await createWish(t.db, { buyerId: me.id, productId: first.id });
      pieces.push({ first, next });
    }
    await Promise.all(buyers.map((me) => wishesOn(second, me)));
    // Unannounced, so a list answered from memory still shows the old name; every other buyer
    // wishes for one more piece, so half of the kept lists are current and half are not.
    for (const [index, me] of buyers.entries()) {
      await renameSilently(pieces[index]!.first.id, `Renamed ${index}`);
      if (index % 2 === 0) await createWish(t.db, { buyerId: me.id, productId: pieces[index]!.next.id });
    }

    const answers = await Promise.all(buyers.map((me) => wishesOn(second, me)));
    expect(answers.map((rows) => rows.map((row) => row.productName))).toEqual(
      buyers.map((_, index) => (index % 2 === 0 ? [`Second of ${index}`, `Renamed ${index}`] : [`First of ${index}`])),
    );
  });
});

/**
 * The round trips of the lists' reads while `run` runs: the catch-up's empty query and the
 * fingerprint statements, on the listening connection, and the lists' own queries, on the pool.
 * (The job worker's queries, which the bookings' e-mails cause, are not counted.)
 */
async function queriesDuring(run: () => Promise<void>) {
  const sent = { catchUps: 0, fingerprints: 0, lists: 0 };
  const query = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const [asked] = args as [string | { name?: string }];
    const name = typeof asked === 'object' ? asked.name : undefined;
    if (asked === '') sent.catchUps++;
    else if (name?.endsWith('_versions_of_owners')) sent.fingerprints++;
    else if (name === 'wishes_of_buyer' || name === 'bookings_of_buyer') sent.lists++;
    return (query as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof query);
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return sent;
}

describe('a buyer reading their own kept list', () => {
  it('waits for one round trip: the page’s fingerprint rides the catch-up the session check needs', async () => {
    const me = await buyer();
    const owner = await seller();
    await createWish(t.db, { buyerId: me.id, productId: (await productOf(owner, 'Oak desk')).id });
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers: me.headers,
      payload: { productId: (await productOf(owner, 'Pine bed')).id, phoneNumber: '+8801700000000', location: 'Banani' },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    // Kept: the session, and each list's answer.
    const [wishes, bookings] = [await wishesOn(t.app, me), await bookingsOn(t.app, me)];

    const reads = 5;
    const sent = await queriesDuring(async () => {
      for (let read = 0; read < reads; read++) {
        expect(await wishesOn(t.app, me)).toEqual(wishes);
        expect(await bookingsOn(t.app, me)).toEqual(bookings);
      }
    });
    expect(sent).toEqual({ catchUps: 0, fingerprints: 2 * reads, lists: 0 });
  });

  it('sees a change made through another server on its very next read', async () => {
    const me = await buyer();
    const owner = await seller();
    const [desk, bed] = [await productOf(owner, 'Oak desk'), await productOf(owner, 'Pine bed')];
    expect(await wishesOn(t.app, me)).toEqual([]);
    expect(await wishesOn(t.app, me)).toEqual([]);

    const added = await second.inject({ method: 'POST', url: '/api/addWish', headers: me.headers, payload: { productId: desk.id } });
    expect(added.statusCode, added.body).toBe(201);
    expect((await wishesOn(t.app, me)).map((wish) => wish.productName)).toEqual(['Oak desk']);
    const removed = await second.inject({ method: 'DELETE', url: `/api/wishDelete?id=${added.json().data._id}`, headers: me.headers });
    expect(removed.statusCode).toBe(200);
    expect(await wishesOn(t.app, me)).toEqual([]);

    expect(await bookingsOn(t.app, me)).toEqual([]);
    expect(await bookingsOn(t.app, me)).toEqual([]);
    const booked = await second.inject({
      method: 'POST',
      url: '/api/addBooking',
      headers: me.headers,
      payload: { productId: bed.id, phoneNumber: '+8801700000000', location: 'Banani' },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    expect((await bookingsOn(t.app, me)).map((booking) => booking._id)).toEqual([booked.json().data._id]);
  });

  it('is refused once the session has ended through another server, though its answer is kept', async () => {
    const me = await buyer();
    await wishesOn(t.app, me);
    await wishesOn(t.app, me);
    await endAllSessions(second.db, me.id);
    const refused = await t.app.inject({ method: 'GET', url: `/api/wishes?email=${encodeURIComponent(me.email)}`, headers: me.headers });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(serverMessages.accounts.sessionEnded);
  });
});

describe('an admin reading another buyer’s kept list', () => {
  it('is given that buyer’s list as it is now, never one judged by the admin’s own rows', async () => {
    // An answer kept for the admin under the very URL of the buyer's list: the admin once had the
    // e-mail the buyer has now. Both lists empty, so their fingerprints alike.
    const product = await productOf(await seller());
    const admin = await signedIn(await createUser(t.db, { role: 'admin', password: null }));
    expect(await wishesOn(t.app, admin)).toEqual([]);
    const email = admin.email;
    await t.db.update(users).set({ email: `moved-${email}` }).where(eq(users.id, admin.id));
    const me = await signedIn(await createUser(t.db, { email, password: null }));
    expect(await wishesOn(t.app, me)).toEqual([]);

    const added = await second.inject({ method: 'POST', url: '/api/addWish', headers: me.headers, payload: { productId: product.id } });
    expect(added.statusCode, added.body).toBe(201);
    const seen = await list<WishRow>(t.app, 'wishes', me, admin.headers);
    expect(seen.map((wish) => wish._id)).toEqual([added.json().data._id]);
    expect(await list<WishRow>(t.app, 'wishes', me, admin.headers)).toEqual(seen);
  });
});

describe('the fingerprint statements', () => {
  it('are planned once, on the listening connection, not again on every read', async () => {
    const { db, pool } = createDatabase(t.database.url, 2);
    const own = await buildApp({ config: t.config, db, jobs: { recurring: false } });
    try {
      await own.ready();
      const me = await buyer();
      for (let read = 0; read < 10; read++) {
        await wishesOn(own, me);
        await bookingsOn(own, me);
      }
      // Plans are the session's own: the listening session, whose round trips the reads ride, is asked.
      const rows = await new Promise<Array<{ name: string; generic_plans: string }>>((resolve, reject) =>
        own.databaseListener.ride((connection) =>
          connection!
            .query<{ name: string; generic_plans: string }>(`select name, generic_plans from pg_prepared_statements where name like '%versions_of_owners'`)
            .then((answer) => resolve(answer.rows), reject),
        ),
      );
      const generic = new Map(rows.map((row) => [row.name, Number(row.generic_plans)]));
      // PostgreSQL plans the first five executions for their values, then keeps the generic plan unless it looks costlier.
      expect(Object.fromEntries(generic)).toEqual({ bookings_versions_of_owners: expect.any(Number), wishes_versions_of_owners: expect.any(Number) });
      for (const [name, plans] of generic) expect(plans, name).toBeGreaterThan(0);
    } finally {
      await own.close();
      await pool.end();
    }
  });
});
