/**
 * Fills the app's database with a large generated catalogue, for trying search at scale:
 *
 *   npm run seed:catalogue -- --products 1000000
 *
 * Uses the same settings as `npm start` (DATABASE_URL, or the embedded PostgreSQL under
 * DATA_DIR, migrated first). Adds to what is there; run it on a database of its own.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/open-database.ts';
import { seedCatalogue } from '../src/demo/catalogue-seed.ts';

const { values } = parseArgs({ options: { products: { type: 'string', default: '100000' } } });
const products = Number(values.products);
if (!Number.isInteger(products) || products < 1 || products > 10_000_000) {
  console.error('--products must be a whole number from 1 to 10000000');
  process.exit(1);
}

const config = loadConfig(process.env);
const database = await openDatabase(config, console.log);
try {
  console.log(`Seeding ${products.toLocaleString('en-US')} products into ${database.description}`);
  await seedCatalogue(database.url, { products, publicUrl: config.publicUrl, log: console.log });
} finally {
  await database.close();
}
