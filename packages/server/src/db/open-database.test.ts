import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFrom } from '../config.ts';
import { createUser } from './factories.ts';
import { openDatabase } from './open-database.ts';
import { findUserByEmail } from '../users/user-repository.ts';

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-restart-'));
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

describe('the embedded database', () => {
  it('keeps what was written when the server starts again on the same DATA_DIR', async () => {
    const config = configFrom({ dataDir, databaseUrl: undefined });
    const first = await openDatabase(config, () => undefined);
    await createUser(first.db, { email: 'kept@example.com' });
    await first.close();

    const second = await openDatabase(config, () => undefined);
    try {
      expect(await findUserByEmail(second.db, 'kept@example.com')).toMatchObject({ email: 'kept@example.com' });
    } finally {
      await second.close();
    }
  });
});
