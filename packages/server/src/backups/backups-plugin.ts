import type { FastifyInstance } from 'fastify';
import { poolOf } from '../db/client.ts';
import { defineRecurringTask } from '../jobs/job-queue.ts';
import { listBaseBackups, makeBaseBackup, mirrorImages, type BackupLocations } from './backups.ts';

/**
 * Every hour: the backup copies of images deleted from the store are pruned, and a base backup is
 * made once the newest is a day old.
 */
export const backupTask = defineRecurringTask('backups.make', { schedule: '41 * * * *' });

/** How old the newest base backup may get before the next is made: replaying a day of WAL is quick. */
export const BASE_BACKUP_EVERY_MS = 24 * 60 * 60 * 1000;

/** Scheduled backups of the embedded database (decision 36) and pruning of the images' backup (decision 46). */
export function registerBackups(app: FastifyInstance, locations: BackupLocations): void {
  app.jobs.handle(backupTask, async (_tick, job) => {
    const newest = (await listBaseBackups(locations.backupDir)).at(-1);
    if (newest && Date.parse(newest.finishedAt) > Date.now() - BASE_BACKUP_EVERY_MS) {
      const images = await mirrorImages(locations);
      if (images.pruned > 0) job.log.info(images, 'pruned the backup copies of deleted images');
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
