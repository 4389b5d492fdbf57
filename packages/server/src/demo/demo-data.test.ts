import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { categories, products } from '../db/schema/index.ts';
import { ensureAdmin } from '../users/admin-bootstrap.ts';
import { findUserByEmail } from '../users/user-repository.ts';
import { demoAccounts, loadDemoData } from './demo-data.ts';

const t = setupTestApp();

describe('loadDemoData', () => {
  it('loads the demo catalogue on a first start whose ADMIN_EMAIL admin was created first, once', async () => {
    expect(await ensureAdmin(t.db, 'boss@example.com', 'Admin1234')).toBe('created');

    expect(await loadDemoData(t.db, 'http://localhost:5000')).toBe(true);
    expect((await t.db.select().from(categories)).length).toBeGreaterThan(0);
    const productCount = (await t.db.select().from(products)).length;
    expect(productCount).toBeGreaterThan(0);
    for (const account of demoAccounts) expect(await findUserByEmail(t.db, account.email)).toMatchObject({ role: account.role });
    expect(await findUserByEmail(t.db, 'boss@example.com')).toMatchObject({ role: 'admin' });

    // Every listing shows something on a first start: its measurements, several photos; a few towns.
    const listed = await t.db.select().from(products);
    for (const product of listed) {
      expect(product.widthCm && product.depthCm && product.heightCm, product.productName).toBeTruthy();
      expect(product.photos.length, product.productName).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(listed.map((product) => product.location)).size).toBeGreaterThanOrEqual(4);
    const fitting = await t.app.inject({ method: 'GET', url: '/api/products?spaceWidth=120&spaceDepth=70&spaceHeight=100' });
    expect(fitting.json().data.length).toBeGreaterThan(0);

    // The catalogue is no longer empty: a second start loads nothing.
    expect(await loadDemoData(t.db, 'http://localhost:5000')).toBe(false);
    expect(await t.db.select().from(products)).toHaveLength(productCount);
  });
});
