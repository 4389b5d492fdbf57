import type { FastifyInstance } from 'fastify';
import { poolOf } from '../db/client.ts';
import { defineRecurringTask } from '../jobs/job-queue.ts';
import { copyNewFiles, listBaseBackups, makeBaseBackup, uploadsBackupDir, type BackupLocations } from './backups.ts';

/** Every hour: the new uploaded images are copied, and a base backup is made once the newest is a day old. */
export const backupTask = defineRecurringTask('backups.make', { schedule: '41 * * * *' });

/** How old the newest base backup may get before the next is made: replaying a day of WAL is quick. */
export const BASE_BACKUP_EVERY_MS = 24 * 60 * 60 * 1000;

/** Scheduled backups of the embedded database and the uploaded images (decision 36). */
export function registerBackups(app: FastifyInstance, locations: BackupLocations): void {
  app.jobs.handle(backupTask, async (_tick, job) => {
    const newest = (await listBaseBackups(locations.backupDir)).at(-1);
    if (newest && Date.parse(newest.finishedAt) > Date.now() - BASE_BACKUP_EVERY_MS) {
      await copyNewFiles(locations.uploadsDir, uploadsBackupDir(locations.backupDir));
      return;
    }
    const client = await poolOf(app.db).connect();
    try {
      const backup = await makeBaseBackup(client, locations);
      job.log.info({ backup: backup.name }, 'made a base backup of the database');
    } finally {
      client.release();
    }
  });
}
