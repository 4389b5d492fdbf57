import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../db/client.ts';
import type { JobOutcome } from './jobs-plugin.ts';

/**
 * Time travel for the job queue, for tests: work scheduled for later is tested by moving the queue's
 * clock, not by waiting. A handler decides from the job's payload and the rows it acts on, never by
 * comparing with the current time (an expiry job carries the expiry it was scheduled for, and
 * expires the listing only if that is still its expiry), so moving a job's run-at is all it takes.
 */

/**
 * Moves every waiting job `ms` milliseconds earlier, as if that much time had passed, and wakes the
 * workers: jobs that are now due start at once. Answers how many jobs moved.
 */
export async function advanceJobClock(db: Executor, ms: number): Promise<number> {
  const { rows } = await db.execute<{ moved: number }>(sql`
    select count(moved.id)::int as moved
    from graphile_worker.jobs as job,
      lateral graphile_worker.reschedule_jobs(array[job.id], run_at => job.run_at - make_interval(secs => ${ms / 1000})) as moved
    where job.locked_at is null and job.attempts < job.max_attempts`);
  const moved = rows[0]!.moved;
  await db.execute(sql`select pg_notify('jobs:insert', ${JSON.stringify({ count: Math.max(moved, 1) })})`);
  return moved;
}

/** Whether the outcome of a job's last run is written down: the job is gone (done) or released. */
async function isWrittenDown(db: Executor, jobId: string): Promise<boolean> {
  const { rows } = await db.execute(sql`select 1 from graphile_worker.jobs where id = ${jobId} and locked_at is not null`);
  return rows.length === 0;
}

/**
 * Resolves with the next outcome on this app server that matches, once it is written down (the
 * worker reports an outcome just before writing it), so that the job can be moved or inspected.
 */
export async function nextOutcome(app: FastifyInstance, matches: (outcome: JobOutcome) => boolean): Promise<JobOutcome> {
  const outcome = await new Promise<JobOutcome>((resolve) => {
    const stop = app.jobs.onSettled((candidate) => {
      if (!matches(candidate)) return;
      stop();
      resolve(candidate);
    });
  });
  while (!(await isWrittenDown(app.db, outcome.id))) await new Promise((resolve) => setTimeout(resolve, 10));
  return outcome;
}
