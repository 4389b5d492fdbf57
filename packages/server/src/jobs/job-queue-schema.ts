import { Logger, runMigrations } from 'graphile-worker';
import pg from 'pg';
import { JOB_QUEUE_SCHEMA } from './job-queue.ts';

const silent = new Logger(() => () => undefined);

/**
 * `graphile_worker.add_jobs` for one job, without its `NOTIFY`: a job added in a write's transaction
 * must not make that commit notify (decision 25), so the caller wakes the workers after the commit
 * (`announceAfterCommit`), and a lost wake-up waits for their poll. The same rows as graphile-worker
 * 0.17's `add_jobs` writes for a job with no queue, priority or flags, with `replace` or
 * `preserve_run_at` keys; compare with its latest migration when upgrading graphile-worker.
 */
const addJobUnannounced = `
  create or replace function add_job_unannounced(
    task_identifier text, job_payload json, job_run_at timestamptz, job_max_attempts int, job_key text, keep_run_at boolean
  ) returns ${JOB_QUEUE_SCHEMA}._private_jobs language plpgsql as $$
  declare
    added ${JOB_QUEUE_SCHEMA}._private_jobs;
  begin
    insert into ${JOB_QUEUE_SCHEMA}._private_tasks (identifier) values (task_identifier) on conflict do nothing;
    -- A job of this key that is running keeps running without its key; the new one waits its turn.
    if job_key is not null then
      update ${JOB_QUEUE_SCHEMA}._private_jobs as jobs
      set key = null, attempts = jobs.max_attempts, updated_at = now()
      where jobs.key = job_key and is_available is not true;
    end if;
    insert into ${JOB_QUEUE_SCHEMA}._private_jobs as jobs (task_id, payload, run_at, max_attempts, key)
    select tasks.id, coalesce(job_payload, '{}'::json), coalesce(job_run_at, now()), job_max_attempts, job_key
    from ${JOB_QUEUE_SCHEMA}._private_tasks as tasks
    where tasks.identifier = task_identifier
    on conflict (key) do update set
      task_id = excluded.task_id,
      payload = excluded.payload,
      max_attempts = excluded.max_attempts,
      run_at = case when keep_run_at and jobs.attempts = 0 then jobs.run_at else excluded.run_at end,
      revision = jobs.revision + 1,
      attempts = 0,
      last_error = null,
      updated_at = now()
    where jobs.locked_at is null
    returning * into added;
    return added;
  end;
  $$`;

/**
 * Installs or upgrades the job queue's own tables and functions (graphile-worker's migrations, in
 * its schema), and `add_job_unannounced`. Part of the app's migrations, so every database the app
 * runs on has the queue.
 */
export async function installJobQueue(connectionString: string): Promise<void> {
  await runMigrations({ connectionString, schema: JOB_QUEUE_SCHEMA, maxPoolSize: 1, logger: silent });
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(addJobUnannounced);
  } finally {
    await client.end();
  }
}
