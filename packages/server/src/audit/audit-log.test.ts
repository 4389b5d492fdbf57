import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { createUser } from '../demo/factories.ts';
import { auditLog } from '../db/schema/index.ts';

const t = setupTestApp();

const newAdmin = () => createUser(t.db, { role: 'admin', password: null });

/** The database's own message for a refused statement (drizzle wraps it as the cause). */
async function refusal(statement: Promise<unknown>): Promise<string> {
  const error = await statement.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return error instanceof Error && error.cause instanceof Error ? error.cause.message : 'not refused';
}

async function entriesFor(targetId: string) {
  const rows = await t.db.select().from(auditLog).where(sql`${auditLog.targetId} = ${targetId}`);
  return rows;
}

describe('the audit log of admin acts', () => {
  it('records verify, make admin and delete user with actor, target and address, in the act’s transaction', async () => {
    const admin = await newAdmin();
    const headers = await bearer(t.app, admin.id);
    const seller = await createUser(t.db, { role: 'seller', password: null });

    expect((await t.app.inject({ method: 'PATCH', url: `/api/verifyUser?email=${seller.email}`, headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PATCH', url: `/api/makeNewAdmin?email=${seller.email}`, headers })).statusCode).toBe(200);
    const buyer = await createUser(t.db, { role: 'buyer', password: null });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/deleteUser?email=${buyer.email}`, headers })).statusCode).toBe(200);

    expect((await entriesFor(seller.id)).map((entry) => entry.action).sort()).toEqual(['user.make-admin', 'user.verify']);
    const [deleted] = await entriesFor(buyer.id);
    expect(deleted).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      action: 'user.delete',
      targetType: 'user',
      targetLabel: buyer.email,
      address: '127.0.0.1',
    });
  });

  it('records an added category', async () => {
    const headers = await bearer(t.app, (await newAdmin()).id);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/addCategory',
      headers,
      payload: { categoryName: `Audited ${process.pid}`, description: 'Chairs and more', image: 'https://example.com/c.jpg' },
    });
    expect(response.statusCode).toBe(201);
    const [entry] = await entriesFor(response.json().data._id ?? response.json().data.id);
    expect(entry).toMatchObject({ action: 'category.add', targetLabel: `Audited ${process.pid}` });
  });

  it('writes no entry for a refused or failed act', async () => {
    const admin = await newAdmin();
    const headers = await bearer(t.app, admin.id);
    const before = await t.db.select({ count: sql<number>`count(*)::int` }).from(auditLog);

    const otherAdmin = await newAdmin();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/deleteUser?email=${otherAdmin.email}`, headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PATCH', url: '/api/verifyUser?email=nobody-here@example.com', headers })).statusCode).toBe(404);
    const category = { categoryName: `Twice ${process.pid}`, description: 'Tables', image: 'https://example.com/t.jpg' };
    expect((await t.app.inject({ method: 'POST', url: '/api/addCategory', headers, payload: category })).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: '/api/addCategory', headers, payload: category })).statusCode).toBe(409);

    const after = await t.db.select({ count: sql<number>`count(*)::int` }).from(auditLog);
    expect(after[0]!.count - before[0]!.count).toBe(1); // only the first category
  });

  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    const headers = await bearer(t.app, (await newAdmin()).id);
    const seller = await createUser(t.db, { role: 'seller', password: null });
    await t.app.inject({ method: 'PATCH', url: `/api/verifyUser?email=${seller.email}`, headers });

    expect(await refusal(t.db.execute(sql`update audit_log set reason = 'rewritten' where target_id = ${seller.id}`))).toBe(
      'the audit log is append-only: UPDATE is not allowed',
    );
    expect(await refusal(t.db.execute(sql`delete from audit_log where target_id = ${seller.id}`))).toBe(
      'the audit log is append-only: DELETE is not allowed',
    );
    expect(await refusal(t.db.execute(sql`truncate audit_log`))).toBe('the audit log is append-only: TRUNCATE is not allowed');
    expect(await entriesFor(seller.id)).toHaveLength(1);
  });
});

describe('GET /api/admin/audit', () => {
  it('filters by actor and action, newest first, in keyset pages', async () => {
    const admin = await newAdmin();
    const headers = await bearer(t.app, admin.id);
    const sellers = [];
    for (let i = 0; i < 3; i++) {
      const seller = await createUser(t.db, { role: 'seller', password: null });
      sellers.push(seller);
      await t.app.inject({ method: 'PATCH', url: `/api/verifyUser?email=${seller.email}`, headers });
    }
    await t.app.inject({ method: 'PATCH', url: `/api/makeNewAdmin?email=${sellers[0]!.email}`, headers });

    const first = await t.app.inject({ method: 'GET', url: `/api/admin/audit?actor=${admin.id}&action=user.verify&limit=2`, headers });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.map((entry: { targetId: string }) => entry.targetId)).toEqual([sellers[2]!.id, sellers[1]!.id]);
    expect(first.json().nextCursor).toEqual(expect.any(String));

    const second = await t.app.inject({
      method: 'GET',
      url: `/api/admin/audit?actor=${admin.id}&action=user.verify&limit=2&cursor=${first.json().nextCursor}`,
      headers,
    });
    expect(second.json().data.map((entry: { targetId: string }) => entry.targetId)).toEqual([sellers[0]!.id]);
    expect(second.json().nextCursor).toBeNull();

    const future = await t.app.inject({ method: 'GET', url: `/api/admin/audit?actor=${admin.id}&since=2999-01-01T00:00:00Z`, headers });
    expect(future.json().data).toEqual([]);
  });

  it('answers 400 naming a bad filter', async () => {
    const headers = await bearer(t.app, (await newAdmin()).id);
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/audit?since=yesterday', headers });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Give a date and time');
  });

  it('answers 400 for a cursor beyond the largest entry id there can be', async () => {
    const headers = await bearer(t.app, (await newAdmin()).id);
    for (const cursor of ['99999999999999999999999', '9223372036854775808']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/admin/audit?cursor=${cursor}`, headers });
      expect(response.statusCode, cursor).toBe(400);
      expect(response.json().message).toBe('cursor: This is not a cursor this list gave');
    }
    const largest = await t.app.inject({ method: 'GET', url: '/api/admin/audit?cursor=9223372036854775807', headers });
    expect(largest.statusCode).toBe(200);
  });
});
