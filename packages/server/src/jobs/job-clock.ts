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

/** Resolves with the first outcome on this app server that matches. */
export function nextOutcome(app: FastifyInstance, matches: (outcome: JobOutcome) => boolean): Promise<JobOutcome> {
  return new Promise((resolve) => {
    const stop = app.jobs.onSettled((outcome) => {
      if (!matches(outcome)) return;
      stop();
      resolve(outcome);
    });
  });
}
