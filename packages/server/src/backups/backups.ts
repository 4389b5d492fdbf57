import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { Config } from '../config.ts';
import { walArchiveDir } from '../db/embedded.ts';
import { backupDirOf, embeddedDatabaseDir } from '../db/open-database.ts';

/**
 * Backups of the embedded database (decision 36): PostgreSQL archives its WAL continuously into
 * BACKUP_DIR/wal (db/embedded.ts); a base backup, a copy of the cluster's files taken between
 * pg_backup_start and pg_backup_stop, goes to BACKUP_DIR/base/<time>/, with the credentials. Each
 * uploaded image is copied to BACKUP_DIR/uploads as it is stored (images/disk-image-store.ts,
 * decision 46); the backup job prunes the copies of images deleted since.
 */
export interface BackupLocations {
  /** DATA_DIR/postgres: the cluster (`cluster/`) and its credentials. */
  databaseDir: string;
  /** DATA_DIR/uploads: the uploaded images kept on disk. */
  uploadsDir: string;
  backupDir: string;
}

export function backupLocations(config: Pick<Config, 'dataDir' | 'backupDir'>): BackupLocations {
  return {
    databaseDir: embeddedDatabaseDir(config.dataDir),
    uploadsDir: path.join(config.dataDir, 'uploads'),
    backupDir: backupDirOf(config),
  };
}

/** Base backups kept; WAL older than the oldest of them is deleted. */
export const KEEP_BASE_BACKUPS = 7;

/** What each base backup records about itself, in backup.json. */
export interface BaseBackup {
  /** Its folder under BACKUP_DIR/base. */
  name: string;
  startedAt: string;
  /** The database's time once the backup was complete: it restores any time after this. */
  finishedAt: string;
  /** The first WAL segment a restore of it needs. */
  startWal: string;
}

const baseDir = (backupDir: string) => path.join(backupDir, 'base');
export const uploadsBackupDir = (backupDir: string) => path.join(backupDir, 'uploads');
const PARTIAL = '.partial';

/**
 * What a copy of a running cluster leaves out (PostgreSQL's "Making a Base Backup Using the Low
 * Level API"): the running server's own files, and folders whose contents are made again at
 * start. The WAL comes from the archive instead.
 */
const SKIPPED_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'pg_internal.init']);
const EMPTIED_FOLDERS = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);

/**
 * Copies a cluster's files. Files deleted while it copies are skipped: replaying the WAL from the
 * backup's start makes the copy consistent, whatever changed during it. Folders are private to the
 * cluster's owner, as PostgreSQL requires of its data folder.
 */
async function copyCluster(from: string, to: string, topLevel = true): Promise<void> {
  await fs.mkdir(to, { mode: 0o700 });
  const entries = await fs.readdir(from, { withFileTypes: true }).catch(ignoreMissing([]));
  for (const entry of entries) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      if (topLevel && EMPTIED_FOLDERS.has(entry.name)) await fs.mkdir(target, { mode: 0o700 });
      else await copyCluster(source, target, false);
    } else if (entry.isFile() && !SKIPPED_FILES.has(entry.name) && !entry.name.startsWith('pgsql_tmp')) {
      await fs.copyFile(source, target).catch(ignoreMissing(undefined));
    }
  }
}

function ignoreMissing<T>(fallback: T) {
  return (error: NodeJS.ErrnoException): T => {
    if (error.code === 'ENOENT') return fallback;
    throw error;
  };
}

const listFiles = (folder: string) => fs.readdir(folder).catch(ignoreMissing([] as string[]));

/** Copies the files of `from` that `to` does not have yet (images never change once stored). */
export async function copyNewFiles(from: string, to: string): Promise<number> {
  const names = await listFiles(from);
  await fs.mkdir(to, { recursive: true });
  const present = new Set(await fs.readdir(to));
  let copied = 0;
  for (const name of names) {
    if (present.has(name) || name.endsWith(PARTIAL)) continue;
    // Through a temporary name, so a copy cut short is never taken for the image.
    await fs.copyFile(path.join(from, name), path.join(to, name + PARTIAL));
    await fs.rename(path.join(to, name + PARTIAL), path.join(to, name));
    copied += 1;
  }
  return copied;
}

/**
 * Makes BACKUP_DIR/uploads hold the images of DATA_DIR/uploads: copies those missing (stored before
 * images were backed up as they were stored) and deletes the copies of images deleted from the store.
 * Nothing is deleted when DATA_DIR/uploads is missing altogether: that is a lost disk, not deletions.
 */
export async function mirrorImages(locations: Pick<BackupLocations, 'uploadsDir' | 'backupDir'>): Promise<{ copied: number; pruned: number }> {
  const backupUploads = uploadsBackupDir(locations.backupDir);
  // The backup is listed first: an image reaches the store before its backup copy, so every image
  // in this listing is in the store's listing taken after, unless it was deleted.
  const backedUp = await listFiles(backupUploads);
  const stored = await fs.readdir(locations.uploadsDir).catch(ignoreMissing(undefined));
  if (!stored) return { copied: 0, pruned: 0 };
  const copied = await copyNewFiles(locations.uploadsDir, backupUploads);
  const inStore = new Set(stored);
  const deleted = backedUp.filter((name) => !inStore.has(name) && !name.endsWith(PARTIAL));
  for (const name of deleted) await fs.rm(path.join(backupUploads, name), { force: true });
  return { copied, pruned: deleted.length };
}

/** The complete base backups, oldest first. */
export async function listBaseBackups(backupDir: string): Promise<BaseBackup[]> {
  const names = await fs.readdir(baseDir(backupDir)).catch(ignoreMissing([] as string[]));
  const backups: BaseBackup[] = [];
  for (const name of names.filter((name) => !name.endsWith(PARTIAL))) {
    const info = await fs.readFile(path.join(baseDir(backupDir), name, 'backup.json'), 'utf8').catch(ignoreMissing(undefined));
    if (info) backups.push({ ...(JSON.parse(info) as Omit<BaseBackup, 'name'>), name });
  }
  return backups.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
}

/** Where a base backup's copy of the cluster, and of its credentials, are. */
export const baseBackupFiles = (backupDir: string, backup: BaseBackup) => ({
  cluster: path.join(baseDir(backupDir), backup.name, 'cluster'),
  credentials: path.join(baseDir(backupDir), backup.name, 'credentials.json'),
});

/**
 * Makes a base backup of the cluster `client` is connected to (a running server's, which goes on
 * serving meanwhile), brings the images' backup up to date, and prunes what is no longer needed.
 * pg_backup_stop waits until the WAL the backup ends in is archived, so it restores at once.
 */
export async function makeBaseBackup(client: pg.ClientBase, locations: BackupLocations): Promise<BaseBackup> {
  const { databaseDir, backupDir } = locations;
  const started = await client.query<{ startedAt: Date; startWal: string }>(
    `select now() as "startedAt", pg_walfile_name(pg_backup_start($1, fast => true)) as "startWal"`,
    [`furniture ${new Date().toISOString()}`],
  );
  const { startedAt, startWal } = started.rows[0]!;
  const name = `${startedAt.toISOString().replaceAll(':', '-')}-${randomBytes(3).toString('hex')}`;
  const partialDir = path.join(baseDir(backupDir), name + PARTIAL);
  let stopped = false;
  try {
    await fs.mkdir(partialDir, { recursive: true });
    await copyCluster(path.join(databaseDir, 'cluster'), path.join(partialDir, 'cluster'));
    await fs.copyFile(path.join(databaseDir, 'credentials.json'), path.join(partialDir, 'credentials.json'));
    const { rows } = await client.query<{ labelfile: string; spcmapfile: string | null }>(
      'select labelfile, spcmapfile from pg_backup_stop(wait_for_archive => true)',
    );
    stopped = true;
    await fs.writeFile(path.join(partialDir, 'cluster', 'backup_label'), rows[0]!.labelfile);
    if (rows[0]!.spcmapfile) await fs.writeFile(path.join(partialDir, 'cluster', 'tablespace_map'), rows[0]!.spcmapfile);
    const finished = await client.query<{ finishedAt: Date }>('select clock_timestamp() as "finishedAt"');
    const info = { startedAt: startedAt.toISOString(), finishedAt: finished.rows[0]!.finishedAt.toISOString(), startWal };
    await fs.writeFile(path.join(partialDir, 'backup.json'), JSON.stringify(info, null, 2));
    await fs.rename(partialDir, path.join(baseDir(backupDir), name));
    await mirrorImages(locations);
    await pruneBackups(backupDir);
    return { name, ...info };
  } catch (error) {
    if (!stopped) await client.query('select pg_backup_stop(wait_for_archive => false)').catch(() => undefined);
    await fs.rm(partialDir, { recursive: true, force: true });
    throw error;
  }
}

/** A WAL file's place in the WAL (its log and segment numbers, the same on every timeline). */
const walPosition = (file: string) => file.slice(8, 24);

/** A base backup still being copied after this long was cut short (its process ended). */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Keeps the newest KEEP_BASE_BACKUPS base backups, and the WAL from the oldest of them on; the
 * timelines' history files stay (they are small, and a restore follows them).
 */
export async function pruneBackups(backupDir: string): Promise<void> {
  for (const name of await fs.readdir(baseDir(backupDir))) {
    const folder = path.join(baseDir(backupDir), name);
    if (name.endsWith(PARTIAL) && (await fs.stat(folder)).mtimeMs < Date.now() - ABANDONED_AFTER_MS) {
      await fs.rm(folder, { recursive: true, force: true });
    }
  }
  const backups = await listBaseBackups(backupDir);
  const kept = backups.slice(-KEEP_BASE_BACKUPS);
  for (const backup of backups.slice(0, -KEEP_BASE_BACKUPS)) {
    await fs.rm(path.join(baseDir(backupDir), backup.name), { recursive: true, force: true });
  }
  if (kept.length === 0) return;
  const oldestNeeded = walPosition(kept[0]!.startWal);
  const walDir = walArchiveDir(backupDir);
  for (const file of await fs.readdir(walDir).catch(ignoreMissing([] as string[]))) {
    if (/^[0-9A-F]{24}(\.[0-9A-F]{8}\.backup)?\.gz$/.test(file) && walPosition(file) < oldestNeeded) {
      await fs.rm(path.join(walDir, file), { force: true });
    }
  }
}
