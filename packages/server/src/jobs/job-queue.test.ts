import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import type { WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testConfig } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { buildApp } from '../app.ts';
import { advanceJobClock, nextOutcome } from './job-clock.ts';
import { addJobCall, cancelJob, defineRecurringTask, defineTask, enqueueJob, type JobHandler, type TaskDefinition } from './job-queue.ts';
import { jobsPlugin, type JobsPluginOptions } from './jobs-plugin.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

const running: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()));
});

const HOUR = 60 * 60 * 1000;
const inAnHour = () => new Date(Date.now() + HOUR);

/**
 * An app server with only the job queue, on this file's database, handling the given tasks; its log
 * lines are kept.
 */
async function queueServer(register: (app: FastifyInstance) => void, options: JobsPluginOptions = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } });
  app.decorate('db', database.db);
  await app.register(jobsPlugin, options);
  register(app);
  await app.ready();
  running.push(app);
  return { app, lines };
}

/** A server handling one task, recording the payloads it ran. */
async function recordingServer<Payload>(task: TaskDefinition<Payload>, handler: JobHandler<Payload> = async () => undefined) {
  const ran: Payload[] = [];
  const server = await queueServer((app) =>
    app.jobs.handle(task, async (payload, job) => {
      ran.push(payload);
      await handler(payload, job);
    }),
  );
  return { ...server, ran };
}

async function jobRow(id: string) {
  // updated_at is when the job was last taken (or released): delay_seconds is how long after that it is due.
  const { rows } = await database.db.execute<{ attempts: number; last_error: string | null; locked_at: Date | null; delay_seconds: number }>(sql`
    select attempts, last_error, locked_at, extract(epoch from run_at - updated_at)::float8 as delay_seconds
    from graphile_worker.jobs where id = ${id}`);
  return rows[0];
}

const jobsOf = async (task: TaskDefinition<unknown>) =>
  (await database.db.execute(sql`select id from graphile_worker.jobs where task_identifier = ${task.name}`)).rows;

describe('enqueueJob', () => {
  it('adds nothing when the transaction it was enqueued in rolls back', async () => {
    const task = defineTask<{ n: number }>('test.rolled-back');
    const { app, ran } = await recordingServer(task);

    await database.db
      .transaction(async (tx) => {
        await enqueueJob(tx, task, { n: 1 });
        tx.rollback();
      })
      .catch(() => undefined);
    // A job enqueued afterwards runs; the rolled-back one, which would have been due first, never does.
    const done = nextOutcome(app, (outcome) => outcome.task === task.name);
    const { id } = await enqueueJob(database.db, task, { n: 2 });

    expect(await done).toMatchObject({ id, status: 'succeeded', attempt: 1 });
    expect(ran).toEqual([{ n: 2 }]);
    expect(await jobsOf(task)).toEqual([]);
  });

  it('adds a job without ringing the workers itself; one whose wake-up was lost runs at their next poll', async () => {
    const task = defineTask<{ n: number }>('test.unannounced');
    const { app, ran } = await recordingServer(task);
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.channel));
    await listener.query('LISTEN "jobs:insert"');
    try {
      const done = nextOutcome(app, (outcome) => outcome.task === task.name);
      // The job without its wake-up: what a crash between the commit and its announcement leaves.
      await database.db.execute(sql`select ${addJobCall(task, sql`'{"n":1}'::json`)}`);
      // PostgreSQL sends a listening session what it was signalled before answering it.
      await listener.query('select 1');
      expect(heard).toEqual([]);

      expect(await done).toMatchObject({ status: 'succeeded' });
      expect(ran).toEqual([{ n: 1 }]);
    } finally {
      await listener.end();
    }
  });

  it('runs a job scheduled for later only once it is due', async () => {
    const task = defineTask<{ name: string }>('test.scheduled');
    const { app, ran } = await recordingServer(task);
    const { id: laterId } = await enqueueJob(database.db, task, { name: 'later' }, { runAt: inAnHour() });

    // Jobs due now run, and the worker passes the later one by: after 59 minutes it is still waiting.
    const sentinel = async (name: string) => {
      const done = nextOutcome(app, (outcome) => outcome.task === task.name);
      const { id } = await enqueueJob(database.db, task, { name });
      expect(await done).toMatchObject({ id, status: 'succeeded' });
    };
    await sentinel('now');
    await advanceJobClock(database.db, 59 * 60 * 1000);
    await sentinel('59 minutes later');
    expect(ran).toEqual([{ name: 'now' }, { name: '59 minutes later' }]);

    const due = nextOutcome(app, (outcome) => outcome.id === laterId);
    await advanceJobClock(database.db, 60 * 1000);
    expect(await due).toMatchObject({ status: 'succeeded' });
    expect(ran).toEqual([{ name: 'now' }, { name: '59 minutes later' }, { name: 'later' }]);
  });

  it('keeps one waiting job per key: enqueueing again replaces it (or only its payload), and cancelJob removes it', async () => {
    const task = defineTask<{ version: number }>('test.keyed');
    const { app, ran } = await recordingServer(task);
    const outcomeOf = (id: string) => nextOutcome(app, (outcome) => outcome.id === id);

    // Moved: the second enqueue replaces the payload and the run-at.
    const first = await enqueueJob(database.db, task, { version: 1 }, { key: 'moved', runAt: inAnHour() });
    const moved = await enqueueJob(database.db, task, { version: 2 }, { key: 'moved', runAt: new Date(Date.now() + 2 * HOUR) });
    expect(moved.id).toBe(first.id);
    // Kept: the run-at stays, the payload is replaced.
    const kept = await enqueueJob(database.db, task, { version: 3 }, { key: 'kept', runAt: inAnHour() });
    await enqueueJob(database.db, task, { version: 4 }, { key: 'kept', runAt: new Date(Date.now() + 5 * HOUR), keepRunAt: true });
    // Cancelled.
    await enqueueJob(database.db, task, { version: 5 }, { key: 'cancelled', runAt: inAnHour() });
    expect(await cancelJob(database.db, 'cancelled')).toBe(true);
    expect(await cancelJob(database.db, 'cancelled')).toBe(false);

    const keptRan = outcomeOf(kept.id);
    await advanceJobClock(database.db, HOUR);
    await keptRan;
    const movedRan = outcomeOf(moved.id);
    await advanceJobClock(database.db, HOUR);
    await movedRan;
    expect(ran).toEqual([{ version: 4 }, { version: 2 }]);
  });

  it('keeps a job across an app restart: enqueued, the app closed before it ran, a new app runs it', async () => {
    const task = defineTask<{ note: string }>('test.survives-restart');
    const config = testConfig();
    const first = await buildApp({ config, db: database.db, jobs: { recurring: false } });
    first.jobs.handle(task, async () => expect.fail('the first app must not run the job'));
    await first.ready();
    const { id } = await enqueueJob(database.db, task, { note: 'kept' }, { runAt: inAnHour() });
    await first.close();

    const second = await buildApp({ config, db: database.db, jobs: { recurring: false } });
    running.push(second);
    const ran: Array<{ note: string }> = [];
    second.jobs.handle(task, async (payload) => {
      ran.push(payload);
    });
    await second.ready();
    const done = nextOutcome(second, (outcome) => outcome.id === id);
    await advanceJobClock(database.db, HOUR);

    expect(await done).toMatchObject({ status: 'succeeded', attempt: 1 });
    expect(ran).toEqual([{ note: 'kept' }]);
  });
});

describe('retries', () => {
  it('retries a failing job with exponential back-off, then gives up on it and logs it', async () => {
    const task = defineTask<{ sentinel?: boolean }>('test.always-fails', { maxAttempts: 3 });
    const { app, lines } = await recordingServer(task, async (payload, job) => {
      if (!payload.sentinel) throw new Error(`attempt ${job.attempt} failed`);
    });
    const outcome = (attempt: number) => nextOutcome(app, (o) => o.task === task.name && o.attempt === attempt);

    const firstFailure = outcome(1);
    const { id } = await enqueueJob(database.db, task, {});
    expect(await firstFailure).toMatchObject({ id, status: 'will-retry', maxAttempts: 3 });
    // Back-off: due again e^attempts seconds after the failure (measured here from when the attempt
    // started, a moment before it failed).
    const afterFirst = await jobRow(id);
    expect(afterFirst).toMatchObject({ attempts: 1, last_error: 'attempt 1 failed', locked_at: null });
    expect(afterFirst!.delay_seconds).toBeGreaterThanOrEqual(Math.exp(1));
    expect(afterFirst!.delay_seconds).toBeLessThan(Math.exp(1) + 2);

    const secondFailure = outcome(2);
    await advanceJobClock(database.db, afterFirst!.delay_seconds * 1000);
    expect(await secondFailure).toMatchObject({ id, status: 'will-retry' });
    const afterSecond = await jobRow(id);
    expect(afterSecond).toMatchObject({ attempts: 2, last_error: 'attempt 2 failed' });
    expect(afterSecond!.delay_seconds).toBeGreaterThanOrEqual(Math.exp(2));
    expect(afterSecond!.delay_seconds).toBeLessThan(Math.exp(2) + 2);

    const lastFailure = outcome(3);
    await advanceJobClock(database.db, afterSecond!.delay_seconds * 1000);
    expect(await lastFailure).toMatchObject({ id, status: 'gave-up' });

    expect(lines.filter((line) => line.jobId === id).map((line) => [line.level, line.msg, line.attempt])).toEqual([
      [40, 'job failed; it will be retried', 1],
      [40, 'job failed; it will be retried', 2],
      [50, 'job failed for the last time; the queue gave up on it', 3],
    ]);
    expect(lines.find((line) => line.level === 50)).toMatchObject({ task: task.name, err: expect.objectContaining({ message: 'attempt 3 failed' }) });

    // Given up for good: even due, it is passed by while a later job of the same task runs.
    await database.db.execute(sql`select graphile_worker.reschedule_jobs(array[${id}::bigint], run_at => now() - interval '1 hour')`);
    const sentinel = nextOutcome(app, (o) => o.task === task.name);
    await enqueueJob(database.db, task, { sentinel: true });
    expect(await sentinel).toMatchObject({ status: 'succeeded' });
    expect(await jobRow(id)).toMatchObject({ attempts: 3 });
  });
});

describe('closing the app', () => {
  it('waits for the job in hand to finish', async () => {
    const task = defineTask<Record<string, never>>('test.finishes');
    const workerEvents: WorkerEvents = new EventEmitter();
    let started!: () => void;
    const inHand = new Promise<void>((resolve) => (started = resolve));
    // The job finishes only once the app has begun closing.
    const shutdownBegun = new Promise<void>((resolve) => workerEvents.once('pool:gracefulShutdown', () => resolve()));
    let finished = false;
    const { app } = await queueServer(
      (server) =>
        server.jobs.handle(task, async () => {
          started();
          await shutdownBegun;
          finished = true;
        }),
      { workerEvents },
    );
    running.splice(running.indexOf(app), 1);
    const { id } = await enqueueJob(database.db, task, {});
    await inHand;

    await app.close();
    expect(finished).toBe(true);
    expect(await jobRow(id)).toBeUndefined();
  });

  it('asks a job still running after the grace period to stop; it is released and runs again on another app', async () => {
    const task = defineTask<{ size: string }>('test.interrupted');
    let started!: () => void;
    const inHand = new Promise<void>((resolve) => (started = resolve));
    const { app } = await queueServer(
      (server) =>
        server.jobs.handle(task, async (_payload, job) => {
          started();
          // A long job that honours the signal.
          await new Promise<void>((_resolve, reject) => job.signal.addEventListener('abort', () => reject(new Error('interrupted by shutdown'))));
        }),
      { shutdownGraceMs: 50 },
    );
    running.splice(running.indexOf(app), 1);
    const { id } = await enqueueJob(database.db, task, { size: 'large' });
    await inHand;

    await app.close();
    const released = await jobRow(id);
    expect(released).toMatchObject({ attempts: 1, last_error: 'interrupted by shutdown', locked_at: null });

    const { app: next, ran } = await recordingServer(task);
    const done = nextOutcome(next, (outcome) => outcome.id === id);
    await advanceJobClock(database.db, released!.delay_seconds * 1000);
    expect(await done).toMatchObject({ status: 'succeeded', attempt: 2 });
    expect(ran).toEqual([{ size: 'large' }]);
  });
});

describe('recurring tasks', () => {
  it('run once per tick across two app servers on one database', async () => {
    const task = defineRecurringTask('test.every-minute', { schedule: '* * * * *', catchUpMs: 15 * 60 * 1000 });
    // The schedule has been known for ten minutes and has not run since: both servers starting
    // now catch up on the ticks missed, through the same once-per-tick claim as live ticks.
    await database.db.execute(sql`
      insert into graphile_worker._private_known_crontabs (identifier, known_since, last_execution)
      values (${task.name}, now() - interval '10 minutes', now() - interval '10 minutes')`);
    const ticks: Array<{ tick: string; server: string }> = [];
    const server = async (name: string) => {
      const workerEvents: WorkerEvents = new EventEmitter();
      const cronStarted = new Promise<void>((resolve) => workerEvents.once('cron:started', () => resolve()));
      await queueServer(
        (app) =>
          app.jobs.handle(task, async ({ tick }) => {
            ticks.push({ tick, server: name });
          }),
        { workerEvents },
      );
      await cronStarted;
    };
    await Promise.all([server('a'), server('b')]);

    await vi.waitFor(async () => expect(await jobsOf(task)).toEqual([]), { timeout: 20_000, interval: 50 });
    const times = ticks.map(({ tick }) => Date.parse(tick)).sort((a, b) => a - b);
    expect(new Set(times).size, `ticks run twice: ${JSON.stringify(ticks)}`).toBe(times.length);
    expect(times.length).toBeGreaterThanOrEqual(9);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(60_000);
  });
});
