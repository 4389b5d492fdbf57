import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { announceAfterCommit, type Announcement } from '../db/announcements.ts';
import type { Executor } from '../db/client.ts';

/**
 * The job queue, kept in PostgreSQL by graphile-worker (decision 16): work that must happen later,
 * again, or outside the request that asked for it. Every app server runs a worker; a job runs on
 * one of them, once it is due.
 *
 * A domain declares a task once, at module level:
 *
 *   export const expireListing = defineTask<{ productId: string }>('products.expire-listing');
 *
 * registers what the task does while the app is built (its plugin or routes):
 *
 *   app.jobs.handle(expireListing, async ({ productId }, job) => { ... });
 *
 * and enqueues jobs inside the transaction of the write they belong to, so that a job exists
 * exactly when that write commits:
 *
 *   await db.transaction(async (tx) => {
 *     ...
 *     await enqueueJob(tx, expireListing, { productId }, { runAt: expiresAt, key: `expire:${productId}` });
 *   });
 *
 * A job that throws is retried with exponential back-off (e^attempt seconds, about 2.7 s, 7.4 s,
 * 20 s, ... up to 6 hours between attempts) until its task's `maxAttempts`, then given up and
 * logged. A job can run more than once (a server can die after the work and before recording it),
 * so handlers are idempotent: they check the state they act on in the database.
 */

/** The PostgreSQL schema graphile-worker keeps its tables and functions in. */
export const JOB_QUEUE_SCHEMA = 'graphile_worker';

/** Attempts of a task's job unless the task says otherwise: about a day of retries. */
export const DEFAULT_MAX_ATTEMPTS = 13;

/** A kind of job. `Payload` is what each job carries: JSON (dates travel as strings). */
export interface TaskDefinition<Payload> {
  readonly name: string;
  /** Runs of a job before the queue gives up on it (the first run included). */
  readonly maxAttempts: number;
  /** For a recurring task: when it runs. */
  readonly recurrence?: Recurrence;
  /** Only carries the payload type; never set. */
  readonly payloadType?: Payload;
}

export interface Recurrence {
  /** A cron schedule in UTC: minute hour day-of-month month day-of-week, e.g. `*\/5 * * * *`. */
  schedule: string;
  /**
   * Ticks missed while no app server was running, up to this many milliseconds back, are run on
   * the next start (e.g. a daily digest). Without it a missed tick is simply skipped.
   */
  catchUpMs?: number;
}

/** What a recurring task's job carries: the tick it runs for. */
export interface Tick {
  /** ISO time of the tick, the same on every app server. */
  tick: string;
}

const TASK_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;

function checkTaskName(name: string) {
  if (!TASK_NAME.test(name)) throw new Error(`Task name "${name}" must look like "domain.what-it-does"`);
}

/** Declares a task, named `domain.what-it-does`. */
export function defineTask<Payload>(name: string, options: { maxAttempts?: number } = {}): TaskDefinition<Payload> {
  checkTaskName(name);
  return { name, maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS };
}

/**
 * Declares a task that runs on a schedule, once per tick across all app servers. A failed run is
 * retried like any job (3 attempts by default), and the next tick runs anyway.
 */
export function defineRecurringTask(name: string, recurrence: Recurrence, options: { maxAttempts?: number } = {}): TaskDefinition<Tick> {
  checkTaskName(name);
  return { name, maxAttempts: options.maxAttempts ?? 3, recurrence };
}

export interface JobContext {
  id: string;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /**
   * Aborted when the app is closing and has waited long enough for this job: stop, throw, and the
   * job runs again later (on this or another app server).
   */
  signal: AbortSignal;
  log: FastifyBaseLogger;
}

export type JobHandler<Payload> = (payload: Payload, job: JobContext) => Promise<void>;

export interface EnqueueOptions {
  /** When the job becomes due; now by default. */
  runAt?: Date;
  /**
   * At most one waiting job per key: enqueueing again with the same key replaces the waiting job's
   * payload and run-at (one expiry job per listing, moved when the listing is renewed), and
   * `cancelJob(key)` removes it. A job already running keeps running; the new one waits for its turn.
   */
  key?: string;
  /** With a key: an existing waiting job keeps its run-at, and only its payload is replaced. */
  keepRunAt?: boolean;
}

/** The channel graphile-worker's workers listen on for new jobs. */
const NEW_JOBS_CHANNEL = 'jobs:insert';

/**
 * Wakes the job workers once `db`'s transaction commits, for the jobs it added. A job is added
 * without a NOTIFY of its own, so that the write's commit notifies nothing (decision 25); a wake-up
 * lost in a crash right after the commit leaves the job to the workers' next poll.
 */
export async function wakeWorkersAfterCommit(db: Executor): Promise<void> {
  await announceAfterCommit(db, newJobsAnnouncement);
}

/** What wakes the job workers (`wakeWorkersAfterCommit`), to send together with other announcements. */
export const newJobsAnnouncement: Announcement = { channel: NEW_JOBS_CHANNEL, payloads: ['{"count":1}'] };

/**
 * The SQL call that adds a job whose payload is the SQL `payload` (json), for a statement that adds
 * a job per row it writes (see `notify`), which then wakes the workers (`wakeWorkersAfterCommit`,
 * or `newJobsAnnouncement` among other announcements); `enqueueJob` is the usual way.
 */
export function addJobCall<Payload>(task: TaskDefinition<Payload>, payload: SQL, options: EnqueueOptions = {}): SQL {
  return sql`add_job_unannounced(
    task_identifier => ${task.name},
    job_payload => ${payload},
    job_run_at => ${options.runAt?.toISOString() ?? null}::timestamptz,
    job_max_attempts => ${task.maxAttempts}::int,
    job_key => ${options.key ?? null}::text,
    keep_run_at => ${Boolean(options.key && options.keepRunAt)}::boolean
  )`;
}

/**
 * Adds a job. Pass the transaction of the write the job belongs to: the job is then committed or
 * rolled back with it, and workers hear of it when it commits.
 */
export async function enqueueJob<Payload>(
  db: Executor,
  task: TaskDefinition<Payload>,
  payload: Payload,
  options: EnqueueOptions = {},
): Promise<{ id: string }> {
  const call = addJobCall(task, sql`${JSON.stringify(payload ?? {})}::json`, options);
  const { rows } = await db.execute<{ id: string }>(sql`select id::text from ${call}`);
  await wakeWorkersAfterCommit(db);
  return { id: rows[0]!.id };
}

/**
 * Removes the waiting job with this key (a listing withdrawn before it expired). A job of that key
 * that is running now finishes, and is not retried. Answers whether there was one.
 */
export async function cancelJob(db: Executor, key: string): Promise<boolean> {
  const { rows } = await db.execute<{ id: string | null }>(sql`select (graphile_worker.remove_job(${key})).id::text as id`);
  return rows[0]?.id != null;
}
