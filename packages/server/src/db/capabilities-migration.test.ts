import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withDatabaseName } from './client.ts';
import { migrationsFolder } from './migrate.ts';

/**
 * Migration 0036 on data made before it: accounts that only had a role get the capabilities that
 * role gave (decision 37), and an admin keeps buying or selling where it already had.
 */

interface Journal {
  entries: { idx: number; tag: string }[];
}

const BEFORE_CAPABILITIES = 35;
const name = `furniture_migration_${process.pid}_${randomBytes(4).toString('hex')}`;
let folder: string;
let client: pg.Client;

/** A copy of the migrations whose journal ends at `lastIndex`, so the migrator stops there. */
function migrationsUpTo(lastIndex: number): string {
  const journalPath = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as Journal;
  fs.writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.filter((entry) => entry.idx <= lastIndex) }));
  return folder;
}

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'furniture-migrations-'));
  fs.cpSync(migrationsFolder, folder, { recursive: true });
  const admin = new pg.Client({ connectionString: inject('databaseAdminUrl') });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  client = new pg.Client({ connectionString: withDatabaseName(inject('databaseAdminUrl'), name) });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  const admin = new pg.Client({ connectionString: inject('databaseAdminUrl') });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`).finally(() => admin.end());
  fs.rmSync(folder, { recursive: true, force: true });
});

async function insertUser(label: string, role: 'buyer' | 'seller' | 'admin'): Promise<string> {
  const { rows } = await client.query<{ id: string }>(`insert into users (name, email, role) values ($1, $2, $3) returning id`, [
    label,
    `${label}@example.com`,
    role,
  ]);
  return rows[0]!.id;
}

async function insertProduct(categoryId: string, sellerId: string): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `insert into products (category_id, seller_id, condition, product_name, years_of_used_product, original_price, resale_price, description, phone, location, product_image)
     values ($1, $2, 'Good', 'Oak table', '2', 300, 150, 'Solid oak', '01711111111', 'Dhaka', 'https://images.example.com/t.webp') returning id`,
    [categoryId, sellerId],
  );
  return rows[0]!.id;
}

describe('migration 0036 (capabilities) on accounts made before it', () => {
  it('gives each account the capabilities of its role, and an admin those it already used', async () => {
    await migrate(drizzle(client), { migrationsFolder: migrationsUpTo(BEFORE_CAPABILITIES) });
    const { rows: columns } = await client.query(`select 1 from information_schema.columns where table_name = 'users' and column_name = 'capabilities'`);
    expect(columns).toEqual([]);

    const buyer = await insertUser('buyer', 'buyer');
    const seller = await insertUser('seller', 'seller');
    const plainAdmin = await insertUser('plain-admin', 'admin');
    const bookingAdmin = await insertUser('booking-admin', 'admin');
    const wishingAdmin = await insertUser('wishing-admin', 'admin');
    const talkingAdmin = await insertUser('talking-admin', 'admin');
    const sellingAdmin = await insertUser('selling-admin', 'admin');
    const { rows } = await client.query<{ id: string }>(`insert into categories (category_name, description, image) values ('Tables', 'All tables', 'https://images.example.com/c.webp') returning id`);
    const categoryId = rows[0]!.id;
    const sellersPiece = await insertProduct(categoryId, seller);
    await insertProduct(categoryId, sellingAdmin);
    await client.query(
      `insert into bookings (buyer_id, product_id, product_name, product_image, product_price, phone_number, location)
       values ($1, $2, 'Oak table', 'https://images.example.com/t.webp', 150, '01711111111', 'Dhaka')`,
      [bookingAdmin, sellersPiece],
    );
    await client.query(`insert into wishes (buyer_id, product_id) values ($1, $2)`, [wishingAdmin, sellersPiece]);
    await client.query(`insert into conversations (product_id, buyer_id, seller_id) values ($1, $2, $3)`, [sellersPiece, talkingAdmin, seller]);

    await migrate(drizzle(client), { migrationsFolder: migrationsUpTo(Number.MAX_SAFE_INTEGER) });

    const { rows: migrated } = await client.query<{ id: string; role: string; capabilities: string }>(`select id, role, capabilities::text from users`);
    const capabilitiesOf = (id: string) => migrated.find((row) => row.id === id)!.capabilities;
    expect(capabilitiesOf(buyer)).toBe('{buy}');
    expect(capabilitiesOf(seller)).toBe('{buy,sell}');
    expect(capabilitiesOf(plainAdmin)).toBe('{admin}');
    expect(capabilitiesOf(bookingAdmin)).toBe('{admin,buy}');
    expect(capabilitiesOf(wishingAdmin)).toBe('{admin,buy}');
    expect(capabilitiesOf(talkingAdmin)).toBe('{admin,buy}');
    expect(capabilitiesOf(sellingAdmin)).toBe('{admin,sell}');
    // The roles the specification's screens show stay as they were.
    expect(migrated.filter((row) => row.role === 'admin')).toHaveLength(5);
    // No account is left without a capability: the column is required from now on.
    await expect(client.query(`insert into users (name, email, role) values ('new', 'new@example.com', 'buyer')`)).rejects.toThrow(/capabilities/);
  });
});
