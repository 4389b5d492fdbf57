import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { capabilityTexts, messages } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createBooking, createCategory, createPayment, createProduct, createUser, createWish } from '../demo/factories.ts';
import { auditLog, bookings, payments, products, users, wishes } from '../db/schema/index.ts';

const t = setupTestApp();

const managedUserKeys = ['_id', 'name', 'email', 'image', 'userRole', 'capabilities', 'verified', 'emailVerified', 'suspended'].sort();

const admin = () => createUser(t.db, { role: 'admin', password: null });
const adminHeaders = async () => bearer(t.app, (await admin()).id);

describe('GET /api/allBuyer and GET /api/allSeller', () => {
  it('list the accounts of one role with profile fields and suspension only', async () => {
    const buyer = await createUser(t.db, { role: 'buyer' });
    const seller = await createUser(t.db, { role: 'seller', verified: true });
    const suspended = await createUser(t.db, { role: 'seller' });
    await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
    const headers = await adminHeaders();

    const buyers = await t.app.inject({ method: 'GET', url: '/api/allBuyer?limit=100', headers });
    expect(buyers.statusCode).toBe(200);
    expect(buyers.json().success).toBe(true);
    for (const user of buyers.json().data) {
      expect(Object.keys(user).sort()).toEqual(managedUserKeys);
      expect(user.userRole).toBe('buyer');
    }
    expect(buyers.json().data).toContainEqual({
      _id: buyer.id,
      name: buyer.name,
      email: buyer.email,
      image: buyer.image,
      userRole: 'buyer',
      capabilities: ['buy'],
      verified: false,
      emailVerified: true,
      suspended: false,
    });
    expect(buyers.body).not.toContain('argon2');

    const sellers = await t.app.inject({ method: 'GET', url: '/api/allSeller?limit=100', headers });
    expect(sellers.json().data.map((u: { userRole: string }) => u.userRole)).toEqual(sellers.json().data.map(() => 'seller'));
    expect(sellers.json().data).toContainEqual(expect.objectContaining({ _id: seller.id, verified: true, suspended: false }));
    expect(sellers.json().data).toContainEqual(expect.objectContaining({ _id: suspended.id, suspended: true }));
  });

  it('page the list', async () => {
    for (let i = 0; i < 3; i++) await createUser(t.db, { role: 'seller', password: null });
    const headers = await adminHeaders();
    const first = await t.app.inject({ method: 'GET', url: '/api/allSeller?limit=2', headers });
    expect(first.json().data).toHaveLength(2);
    expect(first.headers.link).toBe('</api/allSeller?limit=2&page=2>; rel="next"');
    const second = await t.app.inject({ method: 'GET', url: '/api/allSeller?limit=2&page=2', headers });
    expect(second.json().data[0]._id).not.toBe(first.json().data[0]._id);
  });

  it('answer 401 without a token and 403 to a buyer or a seller', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/allBuyer' })).statusCode).toBe(401);
    for (const role of ['buyer', 'seller'] as const) {
      const user = await createUser(t.db, { role, password: null });
      const response = await t.app.inject({ method: 'GET', url: '/api/allSeller', headers: await bearer(t.app, user.id) });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ success: false, message: capabilityTexts.onlyFor(['admin']) });
    }
  });
});

describe('DELETE /api/deleteUser', () => {
  it('deletes a buyer with their wishes and bookings, keeping their payment records', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const bought = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { inStock: 'sold' });
    const buyer = await createUser(t.db, { password: null });
    await createWish(t.db, { buyerId: buyer.id, productId: product.id });
    await createBooking(t.db, product, buyer.id);
    const paid = await createBooking(t.db, bought, buyer.id, { paymentStatus: 'paid' });
    const payment = await createPayment(t.db, paid, { buyerName: buyer.name, buyerEmail: buyer.email });

    const response = await t.app.inject({ method: 'DELETE', url: `/api/deleteUser?email=${buyer.email}`, headers: await adminHeaders() });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, deletedCount: 1, message: messages.userDeleted(buyer.email) });

    expect(await t.db.select().from(users).where(eq(users.id, buyer.id))).toEqual([]);
    expect(await t.db.select().from(wishes).where(eq(wishes.buyerId, buyer.id))).toEqual([]);
    expect(await t.db.select().from(bookings).where(eq(bookings.buyerId, buyer.id))).toEqual([]);
    const [kept] = await t.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(kept).toMatchObject({ buyerId: null, bookingId: null, buyerEmail: buyer.email, amountCents: 15000 });
    expect(await t.db.select({ id: products.id }).from(products).where(eq(products.id, product.id))).toHaveLength(1);
  });

  it('deletes a seller with their products and those products’ wishes and unpaid bookings; other buyers’ paid bookings and payments stay', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const category = await createCategory(t.db);
    const listed = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id });
    const sold = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { inStock: 'sold' });
    const buyer = await createUser(t.db, { password: null });
    const wish = await createWish(t.db, { buyerId: buyer.id, productId: listed.id });
    const unpaid = await createBooking(t.db, listed, buyer.id);
    const paid = await createBooking(t.db, sold, buyer.id, { paymentStatus: 'paid' });
    const payment = await createPayment(t.db, paid);

    const response = await t.app.inject({ method: 'DELETE', url: `/api/deleteUser?email=${seller.email}`, headers: await adminHeaders() });
    expect(response.statusCode).toBe(200);
    expect(response.json().deletedCount).toBe(1);

    expect(await t.db.select().from(products).where(eq(products.sellerId, seller.id))).toEqual([]);
    expect(await t.db.select().from(wishes).where(eq(wishes.id, wish.id))).toEqual([]);
    expect(await t.db.select().from(bookings).where(eq(bookings.id, unpaid.id))).toEqual([]);
    const [keptBooking] = await t.db.select().from(bookings).where(eq(bookings.id, paid.id));
    expect(keptBooking).toMatchObject({ productId: null, paymentStatus: 'paid' });
    const [keptPayment] = await t.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(keptPayment).toMatchObject({ productId: null, bookingId: paid.id });
    expect(await t.db.select().from(users).where(eq(users.id, buyer.id))).toHaveLength(1);
  });

  it('refuses the admin’s own account and another admin’s with 403', async () => {
    const me = await admin();
    const other = await admin();
    const headers = await bearer(t.app, me.id);
    const own = await t.app.inject({ method: 'DELETE', url: `/api/deleteUser?email=${me.email}`, headers });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toEqual({ success: false, message: 'You cannot delete your own account' });
    const theirs = await t.app.inject({ method: 'DELETE', url: `/api/deleteUser?email=${other.email}`, headers });
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json().message).toBe('Admin accounts cannot be deleted');
    expect(await t.db.select().from(users).where(eq(users.id, other.id))).toHaveLength(1);
  });

  it('answers 404 for an unknown e-mail and 400 for a malformed one', async () => {
    const headers = await adminHeaders();
    const unknown = await t.app.inject({ method: 'DELETE', url: '/api/deleteUser?email=ghost@example.com', headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: 'No account with the e-mail ghost@example.com' });
    const malformed = await t.app.inject({ method: 'DELETE', url: '/api/deleteUser?email=ghost', headers });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors).toEqual([{ field: 'email', message: 'email must be a valid e-mail address' }]);
  });

  it('answers 403 to a seller trying to delete a buyer, and the buyer stays', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const buyer = await createUser(t.db, { password: null });
    const response = await t.app.inject({ method: 'DELETE', url: `/api/deleteUser?email=${buyer.email}`, headers: await bearer(t.app, seller.id) });
    expect(response.statusCode).toBe(403);
    expect(await t.db.select().from(users).where(eq(users.id, buyer.id))).toHaveLength(1);
  });
});

describe('PATCH /api/verifyUser', () => {
  it('verifies a seller, which shows at once as sellerVerified on their products', async () => {
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { advertisement: true });
    const advertised = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/advertisement?limit=100' })).json().data.find((p: { _id: string }) => p._id === product.id);
    expect((await advertised()).sellerVerified).toBe(false);

    const response = await t.app.inject({ method: 'PATCH', url: `/api/verifyUser?email=${seller.email}`, headers: await adminHeaders() });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: messages.userVerified(seller.email) });
    expect((await advertised()).sellerVerified).toBe(true);
    const [row] = await t.db.select({ verified: users.verified }).from(users).where(eq(users.id, seller.id));
    expect(row!.verified).toBe(true);
  });

  it('answers the same when verifying twice, 404 for an unknown e-mail, 403 to a buyer', async () => {
    const seller = await createUser(t.db, { role: 'seller', verified: true, password: null });
    const headers = await adminHeaders();
    const again = await t.app.inject({ method: 'PATCH', url: `/api/verifyUser?email=${seller.email}`, headers });
    expect(again.json()).toEqual({ success: true, message: messages.userVerified(seller.email) });
    const unknown = await t.app.inject({ method: 'PATCH', url: '/api/verifyUser?email=ghost@example.com', headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No account with the e-mail ghost@example.com');
    const buyer = await createUser(t.db, { password: null });
    const wrongRole = await t.app.inject({ method: 'PATCH', url: `/api/verifyUser?email=${buyer.email}`, headers: await bearer(t.app, buyer.id) });
    expect(wrongRole.statusCode).toBe(403);
    const [row] = await t.db.select({ verified: users.verified }).from(users).where(eq(users.id, buyer.id));
    expect(row!.verified).toBe(false);
  });
});

describe('PATCH /api/makeNewAdmin', () => {
  it('makes an existing account an admin, who can then use the admin calls', async () => {
    const buyer = await createUser(t.db, { password: null });
    const response = await t.app.inject({ method: 'PATCH', url: `/api/makeNewAdmin?email=${buyer.email.toUpperCase()}`, headers: await adminHeaders() });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: `${buyer.email} is now an admin` });
    const asNewAdmin = await t.app.inject({ method: 'GET', url: '/api/allBuyer', headers: await bearer(t.app, buyer.id) });
    expect(asNewAdmin.statusCode).toBe(200);

    const again = await t.app.inject({ method: 'PATCH', url: `/api/makeNewAdmin?email=${buyer.email}`, headers: await adminHeaders() });
    expect(again.json()).toEqual({ success: true, message: `${buyer.email} is already an admin` });
  });

  it('says so when the e-mail has no account: 404', async () => {
    const response = await t.app.inject({ method: 'PATCH', url: '/api/makeNewAdmin?email=newcomer@example.com', headers: await adminHeaders() });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      success: false,
      message: 'No account with the e-mail newcomer@example.com: they must sign up before they can be made an admin',
    });
  });

  it('answers 400 without an e-mail and 403 to a seller, who stays a seller', async () => {
    const headers = await adminHeaders();
    const missing = await t.app.inject({ method: 'PATCH', url: '/api/makeNewAdmin', headers });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('email is required');
    const seller = await createUser(t.db, { role: 'seller', password: null });
    const selfPromotion = await t.app.inject({ method: 'PATCH', url: `/api/makeNewAdmin?email=${seller.email}`, headers: await bearer(t.app, seller.id) });
    expect(selfPromotion.statusCode).toBe(403);
    const [row] = await t.db.select({ role: users.role }).from(users).where(eq(users.id, seller.id));
    expect(row!.role).toBe('seller');
  });
});

/** Leaves `keep` as the only admins: the last-admin rule counts every admin of this file's database. */
async function onlyAdmins(...keep: { id: string }[]) {
  const keptIds = keep.map((user) => user.id);
  const admins = await t.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
  for (const { id } of admins.filter(({ id }) => !keptIds.includes(id))) {
    await t.db.update(users).set({ role: 'buyer', capabilities: ['buy'] }).where(eq(users.id, id));
  }
}

const auditOf = (targetId: string) => t.db.select().from(auditLog).where(eq(auditLog.targetId, targetId));
const accountOf = async (id: string) => (await t.db.select({ role: users.role, capabilities: users.capabilities }).from(users).where(eq(users.id, id)))[0];

describe('PATCH /api/removeAdmin', () => {
  it('takes another admin’s rights away, records it, and the account keeps what it did before', async () => {
    const me = await admin();
    const other = await admin();
    const sellerAdmin = await createUser(t.db, { role: 'seller', password: null });
    const headers = await bearer(t.app, me.id);
    await t.app.inject({ method: 'PATCH', url: `/api/makeNewAdmin?email=${sellerAdmin.email}`, headers });

    const response = await t.app.inject({ method: 'PATCH', url: `/api/removeAdmin?email=${other.email}`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: `${other.email} is no longer an admin` });
    // An account made as an admin had nothing else: it can buy, as a new account can.
    expect(await accountOf(other.id)).toEqual({ role: 'buyer', capabilities: ['buy'] });
    const asFormerAdmin = await t.app.inject({ method: 'GET', url: '/api/allBuyer', headers: await bearer(t.app, other.id) });
    expect(asFormerAdmin.statusCode).toBe(403);
    expect(await auditOf(other.id)).toEqual([expect.objectContaining({ action: 'user.remove-admin', actorId: me.id, targetLabel: other.email })]);

    await t.app.inject({ method: 'PATCH', url: `/api/removeAdmin?email=${sellerAdmin.email}`, headers });
    expect(await accountOf(sellerAdmin.id)).toEqual({ role: 'seller', capabilities: ['buy', 'sell'] });
  });

  it('refuses to take the last admin’s rights with 409, saying why, and records nothing', async () => {
    const last = await admin();
    await onlyAdmins(last);
    const response = await t.app.inject({ method: 'PATCH', url: `/api/removeAdmin?email=${last.email}`, headers: await bearer(t.app, last.id) });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      success: false,
      message: `${last.email} is the last admin, so their admin rights stay: make someone else an admin first`,
    });
    expect(await accountOf(last.id)).toEqual({ role: 'admin', capabilities: ['admin'] });
    expect(await auditOf(last.id)).toEqual([]);
  });

  it('answers 200 saying so for an account that is no admin, 404 for an unknown e-mail, 403 to a buyer', async () => {
    const headers = await adminHeaders();
    const buyer = await createUser(t.db, { password: null });
    const notAdmin = await t.app.inject({ method: 'PATCH', url: `/api/removeAdmin?email=${buyer.email}`, headers });
    expect(notAdmin.json()).toEqual({ success: true, message: `${buyer.email} is not an admin` });
    const unknown = await t.app.inject({ method: 'PATCH', url: '/api/removeAdmin?email=ghost@example.com', headers });
    expect(unknown.statusCode).toBe(404);
    const other = await admin();
    const byBuyer = await t.app.inject({ method: 'PATCH', url: `/api/removeAdmin?email=${other.email}`, headers: await bearer(t.app, buyer.id) });
    expect(byBuyer.statusCode).toBe(403);
    expect(await accountOf(other.id)).toEqual({ role: 'admin', capabilities: ['admin'] });
  });

  it('lets exactly one of the last two admins, removing each other at once, succeed', async () => {
    const first = await admin();
    const second = await admin();
    await onlyAdmins(first, second);
    const [firstHeaders, secondHeaders] = [await bearer(t.app, first.id), await bearer(t.app, second.id)];

    // Both requests are held at the admins' row lock, then let through together.
    let release!: () => void;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const holder = t.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, first.id)).for('update');
      holding();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await held;
    const demotions = Promise.all([
      t.app.inject({ method: 'PATCH', url: `/api/removeAdmin?email=${second.email}`, headers: firstHeaders }),
      t.app.inject({ method: 'PATCH', url: `/api/removeAdmin?email=${first.email}`, headers: secondHeaders }),
    ]);
    while ((await lockWaiters()) < 2) await new Promise((resolve) => setImmediate(resolve));
    release();
    await holder;
    const statuses = (await demotions).map((response) => response.statusCode);

    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 200)).toEqual([expect.any(Number)]);
    const remaining = await t.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
    expect(remaining).toHaveLength(1);
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.action, 'user.remove-admin'));
    expect(entries.filter((entry) => [first.id, second.id].includes(entry.targetId))).toHaveLength(1);
  });
});

async function lockWaiters(): Promise<number> {
  const result = await t.db.execute<{ waiting: number }>(
    sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return result.rows[0]!.waiting;
}

describe('PATCH /api/unverifyUser', () => {
  it('takes back a seller’s verification, which their products stop showing at once, and records it once', async () => {
    const seller = await createUser(t.db, { role: 'seller', verified: true, password: null });
    const category = await createCategory(t.db);
    const product = await createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, { advertisement: true });
    const headers = await adminHeaders();
    const response = await t.app.inject({ method: 'PATCH', url: `/api/unverifyUser?email=${seller.email}`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: `${seller.email} is no longer verified` });
    const advertised = (await t.app.inject({ method: 'GET', url: '/api/advertisement?limit=100' })).json().data.find((p: { _id: string }) => p._id === product.id);
    expect(advertised.sellerVerified).toBe(false);

    const again = await t.app.inject({ method: 'PATCH', url: `/api/unverifyUser?email=${seller.email}`, headers });
    expect(again.json()).toEqual(response.json());
    expect((await auditOf(seller.id)).map((entry) => entry.action)).toEqual(['user.unverify']);
  });

  it('answers 404 for an unknown e-mail and 403 to a seller, who stays verified', async () => {
    const unknown = await t.app.inject({ method: 'PATCH', url: '/api/unverifyUser?email=ghost@example.com', headers: await adminHeaders() });
    expect(unknown.statusCode).toBe(404);
    const seller = await createUser(t.db, { role: 'seller', verified: true, password: null });
    const own = await t.app.inject({ method: 'PATCH', url: `/api/unverifyUser?email=${seller.email}`, headers: await bearer(t.app, seller.id) });
    expect(own.statusCode).toBe(403);
    const [row] = await t.db.select({ verified: users.verified }).from(users).where(eq(users.id, seller.id));
    expect(row!.verified).toBe(true);
  });
});

describe('searching the lists of accounts', () => {
  it('keeps the accounts whose name or e-mail contains q, in any case, page by page', async () => {
    const headers = await adminHeaders();
    const byName = await createUser(t.db, { role: 'buyer', name: 'Wilhelmina Quarrington', password: null });
    const byEmail = await createUser(t.db, { role: 'buyer', email: 'quarrington.second@example.com', password: null });
    await createUser(t.db, { role: 'buyer', name: 'Someone Else', password: null });
    const sellerNamedSo = await createUser(t.db, { role: 'seller', name: 'Quarrington Sells', password: null });

    const found = await t.app.inject({ method: 'GET', url: '/api/allBuyer?q=QUARRINGTON', headers });
    expect(found.json().data.map((user: { _id: string }) => user._id)).toEqual([byName.id, byEmail.id]);
    const sellers = await t.app.inject({ method: 'GET', url: '/api/allSeller?q=quarrington', headers });
    expect(sellers.json().data.map((user: { _id: string }) => user._id)).toEqual([sellerNamedSo.id]);

    const first = await t.app.inject({ method: 'GET', url: '/api/allBuyer?q=quarrington&limit=1', headers });
    expect(first.json().data.map((user: { _id: string }) => user._id)).toEqual([byName.id]);
    expect(first.headers.link).toBe('</api/allBuyer?q=quarrington&limit=1&page=2>; rel="next"');
    const second = await t.app.inject({ method: 'GET', url: '/api/allBuyer?q=quarrington&limit=1&page=2', headers });
    expect(second.json().data.map((user: { _id: string }) => user._id)).toEqual([byEmail.id]);
  });

  it('takes % and _ as themselves, lists the admins, and refuses an overlong q', async () => {
    const headers = await adminHeaders();
    await createUser(t.db, { role: 'buyer', name: 'Percent Person', password: null });
    const wildcard = await t.app.inject({ method: 'GET', url: '/api/allBuyer?q=%25', headers });
    expect(wildcard.json().data).toEqual([]);
    const listedAdmin = await admin();
    const admins = await t.app.inject({ method: 'GET', url: `/api/allAdmin?q=${listedAdmin.email}`, headers });
    expect(admins.json().data).toEqual([expect.objectContaining({ _id: listedAdmin.id, userRole: 'admin' })]);
    const overlong = await t.app.inject({ method: 'GET', url: `/api/allBuyer?q=${'a'.repeat(101)}`, headers });
    expect(overlong.statusCode).toBe(400);
    expect(overlong.json().message).toBe('q must be at most 100 characters');
  });
});
