import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { restoreCommand, runningClusterUrl, startEmbeddedPostgres, walArchiveDir } from '../db/embedded.ts';
import { backupLocations, baseBackupFiles, copyNewFiles, listBaseBackups, makeBaseBackup, uploadsBackupDir, type BaseBackup } from './backups.ts';

/** Why `npm run backup` or `npm run restore` did nothing: one line for the person who ran it. */
export class BackupCommandError extends Error {}

const EXTERNAL_DATABASE =
  'DATABASE_URL is set: this app keeps no database of its own, so its backups are the ones of that PostgreSQL server.';

/**
 * `npm run backup`: a base backup now, with the new uploaded images. While the app runs, through
 * its PostgreSQL; otherwise the embedded PostgreSQL is started for it and stopped after.
 */
export async function backupNow(config: Config): Promise<BaseBackup> {
  if (config.databaseUrl) throw new BackupCommandError(EXTERNAL_DATABASE);
  const locations = backupLocations(config);
  if (!existsSync(path.join(locations.databaseDir, 'cluster', 'PG_VERSION'))) {
    throw new BackupCommandError(`There is no database in ${locations.databaseDir} to back up yet: start the app once first.`);
  }
  const runningUrl = await runningClusterUrl(locations.databaseDir);
  const embedded = runningUrl ? undefined : await startEmbeddedPostgres(locations.databaseDir, { walArchive: walArchiveDir(locations.backupDir) });
  try {
    const client = new pg.Client({ connectionString: runningUrl ?? embedded!.adminUrl });
    await client.connect();
    try {
      return await makeBaseBackup(client, locations);
    } finally {
      await client.end();
    }
  } finally {
    await embedded?.stop();
  }
}

/** The backup to restore: the newest, or the newest finished before `to`. */
async function chooseBackup(backupDir: string, to: Date | undefined): Promise<BaseBackup> {
  const backups = await listBaseBackups(backupDir);
  if (backups.length === 0) throw new BackupCommandError(`There is no base backup in ${path.join(backupDir, 'base')}.`);
  const chosen = to ? backups.filter((backup) => new Date(backup.finishedAt) < to).at(-1) : backups.at(-1);
  if (!chosen) {
    throw new BackupCommandError(`No base backup was finished before ${to!.toISOString()}: the oldest was finished at ${backups[0]!.finishedAt}.`);
  }
  return chosen;
}

/** As root the cluster runs as the postgres user (db/embedded.ts), who must own its files. */
async function giveToPostgresUser(directory: string): Promise<void> {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  const [uid, gid] = [id('-u'), id('-g')];
  const chown = async (file: string): Promise<void> => {
    await fs.chown(file, uid, gid);
    if ((await fs.stat(file)).isDirectory()) for (const name of await fs.readdir(file)) await chown(path.join(file, name));
  };
  await chown(directory);
}

/**
 * `npm run restore -- [--to TIME]` (the app stopped): the newest base backup (the newest finished
 * before TIME) becomes DATA_DIR's database, and PostgreSQL replays the archived WAL over it, up to
 * its end or to TIME, then starts a new timeline; the backed-up images missing from DATA_DIR are
 * copied back. A database found in DATA_DIR is kept aside, never deleted.
 */
export async function restoreBackup(config: Config, options: { to?: Date; log: (line: string) => void }): Promise<BaseBackup> {
  if (config.databaseUrl) throw new BackupCommandError(EXTERNAL_DATABASE);
  const { to, log } = options;
  const locations = backupLocations(config);
  const { databaseDir, backupDir, uploadsDir } = locations;
  if (await runningClusterUrl(databaseDir)) throw new BackupCommandError('The app is running: stop it first, then restore.');
  const backup = await chooseBackup(backupDir, to);

  if (existsSync(databaseDir)) {
    const aside = `${databaseDir}.before-restore-${new Date().toISOString().replaceAll(':', '-')}`;
    await fs.rename(databaseDir, aside);
    log(`The database that was in DATA_DIR is kept in ${aside}; delete it once the restore is right.`);
  }
  await fs.mkdir(config.dataDir, { recursive: true });
  // As root the cluster runs as the postgres user, which must be able to pass through DATA_DIR.
  if (process.getuid?.() === 0) await fs.chmod(config.dataDir, 0o755);
  await fs.mkdir(databaseDir);
  const files = baseBackupFiles(backupDir, backup);
  await fs.cp(files.cluster, path.join(databaseDir, 'cluster'), { recursive: true });
  await fs.copyFile(files.credentials, path.join(databaseDir, 'credentials.json'));
  await fs.writeFile(path.join(databaseDir, 'cluster', 'recovery.signal'), '');
  if (process.getuid?.() === 0) await giveToPostgresUser(path.join(databaseDir, 'cluster'));

  log(`Restoring the base backup finished at ${backup.finishedAt}, then the archived WAL up to ${to ? to.toISOString() : 'its end'}`);
  const postgresLog: string[] = [];
  // The server starts (answers connections) once recovery has ended and it has been promoted.
  const recovered = await startEmbeddedPostgres(databaseDir, {
    walArchive: walArchiveDir(backupDir),
    onLog: (line) => postgresLog.push(line),
    settings: {
      restore_command: restoreCommand(walArchiveDir(backupDir)),
      recovery_target_action: 'promote',
      hot_standby: 'off',
      // In the form PostgreSQL reads, which is not quite ISO 8601's.
      ...(to ? { recovery_target_time: to.toISOString().replace('T', ' ').replace('Z', '+00') } : {}),
    },
  }).catch(() => {
    const reasons = postgresLog.join('').split('\n').filter((line) => /FATAL|PANIC/.test(line));
    throw new BackupCommandError(`PostgreSQL could not recover the backup: ${reasons.join(' ') || 'see its log'}`);
  });
  await recovered.stop();

  const images = await copyNewFiles(uploadsBackupDir(backupDir), uploadsDir);
  log(`Restored. ${images} images were copied back to ${uploadsDir}. Start the app with npm start.`);
  return backup;
}
