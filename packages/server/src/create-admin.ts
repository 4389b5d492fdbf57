import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/open-database.ts';
import { ensureAdmin } from './users/admin-bootstrap.ts';

/** `npm run create-admin -- --email E --password P`: creates or promotes an admin account. */
async function main() {
  const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } });
  if (!values.email || !values.password) {
    console.error('Usage: npm run create-admin -- --email admin@example.com --password Secret123');
    process.exit(2);
  }
  const config = loadConfig();
  // While the app runs, on its database: an admin can be made at any time.
  const database = await openDatabase(config, () => undefined, { joinRunning: true });
  try {
    const result = await ensureAdmin(database.db, values.email, values.password);
    console.log(`Admin ${values.email}: ${result}`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exit(1);
});
