import { Logger, runMigrations } from 'graphile-worker';
import { JOB_QUEUE_SCHEMA } from './job-queue.ts';

const silent = new Logger(() => () => undefined);

/**
 * Installs or upgrades the job queue's own tables and functions (graphile-worker's migrations, in
 * its schema). Part of the app's migrations, so every database the app runs on has the queue.
 */
export async function installJobQueue(connectionString: string): Promise<void> {
  await runMigrations({ connectionString, schema: JOB_QUEUE_SCHEMA, maxPoolSize: 1, logger: silent });
}
