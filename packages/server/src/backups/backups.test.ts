import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { configFrom } from '../config.ts';
import type { Database } from '../db/client.ts';
import { openDatabase } from '../db/open-database.ts';
import { createUser } from '../demo/factories.ts';
import { createDiskImageStore } from '../images/disk-image-store.ts';
import { findUserByEmail } from '../users/user-repository.ts';
import { buildApp } from '../app.ts';
import { nextOutcome } from '../jobs/job-clock.ts';
import { enqueueJob } from '../jobs/job-queue.ts';
import { testConfig } from '../../test/app.ts';
import { BackupCommandError, backupNow, restoreBackup } from './backup-commands.ts';
import { backupTask, BASE_BACKUP_EVERY_MS } from './backups-plugin.ts';
import { backupLocations, KEEP_BASE_BACKUPS, listBaseBackups, pruneBackups, uploadsBackupDir } from './backups.ts';

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-backups-'));
// As root the cluster runs as the postgres user, which must be able to pass through.
await fs.chmod(root, 0o755);
afterAll(() => fs.rm(root, { recursive: true, force: true }));

const dataDir = path.join(root, 'data');
const backupDir = path.join(root, 'backups');
const config = configFrom({ dataDir, backupDir, databaseUrl: undefined });
const quiet = () => undefined;
const imageKey = 'uploads/5f0c2a1e-0000-4000-8000-000000000001.webp';
const image = path.join(dataDir, imageKey);

const emailsIn = async (db: Database, emails: string[]) => {
  const found = await Promise.all(emails.map((email) => findUserByEmail(db, email)));
  return emails.filter((_email, index) => found[index] !== undefined);
};

/** The WAL segment PostgreSQL switched from has been archived. */
async function switchAndArchive(db: Database) {
  const { rows } = await db.execute<{ segment: string }>(sql`select pg_walfile_name(pg_switch_wal()) as segment`);
  await vi.waitFor(
    async () => {
      const archived = await db.execute<{ last: string | null }>(sql`select last_archived_wal as last from pg_stat_archiver`);
      expect(archived.rows[0]!.last! >= rows[0]!.segment).toBe(true);
    },
    { timeout: 20_000, interval: 50 },
  );
}

describe('backups of the embedded database', () => {
  it('restore every acknowledged write after the data folder is lost, or the state at a point in time, and the images', async () => {
    const running = await openDatabase(config, quiet);
    let pointInTime: Date;
    try {
      await createUser(running.db, { email: 'before-backup@example.com' });
      // Made while the app's PostgreSQL runs, through it.
      await backupNow(config);
      await expect(restoreBackup(config, { log: quiet })).rejects.toThrow('The app is running: stop it first, then restore.');

      await createUser(running.db, { email: 'after-backup@example.com' });
      // Stored after the last base backup, as the app stores an upload: backed up all the same.
      const store = createDiskImageStore(dataDir, 'http://localhost:5000', { backupDir: uploadsBackupDir(backupDir) });
      await store.save(imageKey, Buffer.from('an uploaded image'));
      // The next millisecond: after the write before it, never before (a Date holds no microseconds).
      const { rows } = await running.db.execute<{ ms: string }>(sql`select ceil(extract(epoch from clock_timestamp()) * 1000)::text as ms`);
      pointInTime = new Date(Number(rows[0]!.ms));
      await createUser(running.db, { email: 'too-late@example.com' });
      await switchAndArchive(running.db);
    } finally {
      await running.close();
    }
    await fs.rm(dataDir, { recursive: true });

    const everyWrite = ['before-backup@example.com', 'after-backup@example.com', 'too-late@example.com'];
    await restoreBackup(config, { log: quiet });
    const restored = await openDatabase(config, quiet);
    try {
      expect(await emailsIn(restored.db, everyWrite)).toEqual(everyWrite);
    } finally {
      await restored.close();
    }
    expect(await fs.readFile(image, 'utf8')).toBe('an uploaded image');

    await restoreBackup(config, { to: pointInTime, log: quiet });
    const atPointInTime = await openDatabase(config, quiet);
    try {
      expect(await emailsIn(atPointInTime.db, everyWrite)).toEqual(['before-backup@example.com', 'after-backup@example.com']);
    } finally {
      await atPointInTime.close();
    }
    // Five starts of PostgreSQL, the first making a new cluster, on two busy cores.
  }, 180_000);

  it('are made by the hourly job: images stored before they were backed up as stored, a base backup once the newest is a day old', async () => {
    // On the database the first test restored.
    const database = await openDatabase(config, quiet);
    const app = await buildApp({ config: testConfig({ dataDir, backupDir }), db: database.db, jobs: { recurring: false }, backups: backupLocations(config) });
    const runJob = async () => {
      const done = nextOutcome(app, (outcome) => outcome.task === backupTask.name);
      await enqueueJob(database.db, backupTask, { tick: new Date().toISOString() });
      expect(await done).toMatchObject({ status: 'succeeded' });
    };
    try {
      await app.ready();
      const newImage = path.join(dataDir, 'uploads', '5f0c2a1e-0000-4000-8000-000000000002.webp');
      await fs.writeFile(newImage, 'a newer image');
      const [newest] = await listBaseBackups(backupDir);
      await runJob();
      expect(await listBaseBackups(backupDir)).toEqual([newest]);
      expect(await fs.readFile(path.join(backupDir, 'uploads', path.basename(newImage)), 'utf8')).toBe('a newer image');

      // The newest base backup is now a day old.
      const info = path.join(backupDir, 'base', newest!.name, 'backup.json');
      const dayOld = new Date(Date.now() - BASE_BACKUP_EVERY_MS - 1000).toISOString();
      await fs.writeFile(info, JSON.stringify({ ...newest, finishedAt: dayOld }));
      await runJob();
      expect(await listBaseBackups(backupDir)).toHaveLength(2);
    } finally {
      await app.close();
      await database.close();
    }
  }, 120_000);

  it('are refused with DATABASE_URL, whose server keeps its own', async () => {
    const external = configFrom({ dataDir, backupDir, databaseUrl: 'postgres://user:password@db.example.com:5432/furniture' });
    await expect(backupNow(external)).rejects.toThrow(BackupCommandError);
    await expect(restoreBackup(external, { log: quiet })).rejects.toThrow(
      'DATABASE_URL is set: this app keeps no database of its own, so its backups are the ones of that PostgreSQL server.',
    );
  });

  it(`keep the newest ${KEEP_BASE_BACKUPS} base backups and the WAL from the oldest of them on`, async () => {
    const pruned = path.join(root, 'pruned');
    for (let day = 1; day <= KEEP_BASE_BACKUPS + 1; day += 1) {
      const folder = path.join(pruned, 'base', `day-${day}`);
      await fs.mkdir(folder, { recursive: true });
      const info = { startedAt: `2026-11-0${day}T03:00:00.000Z`, finishedAt: `2026-11-0${day}T03:01:00.000Z`, startWal: `0000000100000000000000${day}0` };
      await fs.writeFile(path.join(folder, 'backup.json'), JSON.stringify(info));
    }
    const wal = path.join(pruned, 'wal');
    await fs.mkdir(wal);
    const walFiles = ['000000010000000000000010.gz', '00000001000000000000001F.gz', '000000010000000000000020.gz', '000000020000000000000021.gz', '00000002.history.gz'];
    for (const file of walFiles) await fs.writeFile(path.join(wal, file), '');

    await pruneBackups(pruned);

    expect((await listBaseBackups(pruned)).map((backup) => backup.name)).toEqual(['day-2', 'day-3', 'day-4', 'day-5', 'day-6', 'day-7', 'day-8']);
    expect((await fs.readdir(wal)).sort()).toEqual(['000000010000000000000020.gz', '00000002.history.gz', '000000020000000000000021.gz']);
  });
});
