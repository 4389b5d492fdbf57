import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { configFrom } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { createUser } from '../demo/factories.ts';
import { openDatabase } from './open-database.ts';
import { findUserByEmail } from '../users/user-repository.ts';

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-restart-'));
// As root the cluster runs as the postgres user, which must be able to pass through.
await fs.chmod(dataDir, 0o755);
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

describe('a PostgreSQL left running by an earlier start', () => {
  it('is stopped, and the new start opens the same data', async () => {
    const directory = path.join(dataDir, 'leftover');
    // The earlier start runs in a process of its own, killed once its PostgreSQL is up, as when
    // an app's process is killed: its PostgreSQL keeps running, and nothing watches it any more.
    const earlierStart = spawn(
      process.execPath,
      ['--import', 'tsx', '-e', `import(${JSON.stringify(path.join(import.meta.dirname, 'embedded.ts'))}).then(({ startEmbeddedPostgres }) => startEmbeddedPostgres(${JSON.stringify(directory)})).then((database) => console.log(database.pid()))`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = (await once(earlierStart.stdout!.setEncoding('utf8'), 'data')) as [string];
    const earlierPid = Number(line.trim());
    earlierStart.kill('SIGKILL');
    await once(earlierStart, 'exit');
    const notices: string[] = [];

    const next = await startEmbeddedPostgres(directory, { onNotice: (notice) => notices.push(notice) });
    try {
      expect(notices).toEqual([`Stopping the embedded PostgreSQL left running by an earlier start (pid ${earlierPid})`]);
      const client = new pg.Client({ connectionString: next.adminUrl });
      await client.connect();
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      await client.end();
      expect(rows[0]!.pid).not.toBe(earlierPid);
    } finally {
      await next.stop();
    }
  });
});
