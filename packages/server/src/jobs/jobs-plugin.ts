import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Logger, parseCronItems, run, type CronItem, type Runner, type Task, type TaskList, type WorkerEvents } from 'graphile-worker';
import { poolOf } from '../db/client.ts';
import type { JobHandler, TaskDefinition, Tick } from './job-queue.ts';

/** Jobs one app server runs at the same time. */
export const WORKER_CONCURRENCY = 2;
/**
 * How often an idle worker looks for jobs that became due (retries, jobs scheduled for later).
 * Jobs due at once are announced with NOTIFY and start without waiting for it.
 */
export const WORKER_POLL_INTERVAL_MS = 5_000;
/** How long closing the app waits for the jobs in hand before asking them to stop. */
export const SHUTDOWN_GRACE_MS = 5_000;

/** What became of a run of a job on this app server (reported just before it is written down). */
export interface JobOutcome {
  id: string;
  task: string;
  attempt: number;
  maxAttempts: number;
  status: 'succeeded' | 'will-retry' | 'gave-up';
  error?: unknown;
}

export interface JobQueue {
  /**
   * Registers what a task does, on this app server; recurring tasks start being scheduled.
   * Call while the app is being built: the worker starts with the app, knowing every task.
   */
  handle<Payload>(task: TaskDefinition<Payload>, handler: JobHandler<Payload>): void;
  /** Calls the listener after each run of a job on this app server (tests and diagnostics). */
  onSettled(listener: (outcome: JobOutcome) => void): () => void;
  /**
   * Calls the listener when the app closes, once this app server's worker has stopped and its
   * running jobs are done: what they use (a mail server's connections) can be closed then.
   */
  onStopped(listener: () => void | Promise<void>): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue;
  }
}

export interface JobsPluginOptions {
  /** Whether this app server schedules the ticks of recurring tasks (default true). */
  recurring?: boolean;
  shutdownGraceMs?: number;
  /** graphile-worker's own events of this worker (start-up, shutdown, cron), for tests and diagnostics. */
  workerEvents?: WorkerEvents;
}

/** The tick of a recurring task's job: in `_cron` when graphile-worker's cron added it. */
function tickOf(payload: unknown): Tick {
  const cron = (payload as { _cron?: { ts: string } })._cron;
  return cron ? { tick: cron.ts } : (payload as Tick);
}

/**
 * graphile-worker's log lines, into the app's log. Its per-job failure lines are left out (the
 * outcome is logged below, without the job's payload, which may hold personal data), and its
 * chatter about each completed job goes to debug.
 */
function workerLogger(log: FastifyBaseLogger): Logger {
  return new Logger((scope) => (level, message, meta) => {
    if (meta?.failure) return;
    const context = { jobQueue: scope.label ?? 'worker', task: scope.taskIdentifier, jobId: scope.jobId };
    if (level === 'error') log.error(context, message);
    else if (level === 'warning') log.warn(context, message);
    else log.debug(context, message);
  });
}

/**
 * The job queue service (`app.jobs`): every app server runs a worker on the app's own connection
 * pool, which starts when the app is ready and, when the app closes, finishes the jobs in hand (or,
 * after the grace period, asks them to stop; an interrupted job runs again later).
 */
export const jobsPlugin = fp<JobsPluginOptions>(
  async (app: FastifyInstance, options) => {
    const tasks: TaskList = {};
    const cronItems: CronItem[] = [];
    const settled = new EventEmitter();
    const stoppedListeners: Array<() => void | Promise<void>> = [];
    let runner: Runner | undefined;

    app.decorate('jobs', {
      handle(task, handler) {
        if (runner) throw new Error(`Task ${task.name} was registered after the worker started`);
        if (tasks[task.name]) throw new Error(`Task ${task.name} is handled twice`);
        const run: Task = async (payload, helpers) => {
          const job = helpers.job;
          const input = task.recurrence ? tickOf(payload) : payload;
          await handler(input as Parameters<typeof handler>[0], {
            id: job.id,
            attempt: job.attempts,
            maxAttempts: job.max_attempts,
            signal: helpers.abortSignal,
            log: app.log.child({ task: task.name, jobId: job.id }),
          });
        };
        tasks[task.name] = run;
        if (task.recurrence && options.recurring !== false) {
          cronItems.push({
            task: task.name,
            identifier: task.name,
            match: task.recurrence.schedule,
            options: { maxAttempts: task.maxAttempts, backfillPeriod: task.recurrence.catchUpMs ?? 0 },
          });
        }
      },
      onSettled(listener) {
        settled.on('outcome', listener);
        return () => settled.off('outcome', listener);
      },
      onStopped(listener) {
        stoppedListeners.push(listener);
      },
    } satisfies JobQueue);

    const events: WorkerEvents = options.workerEvents ?? new EventEmitter();
    const report = (outcome: JobOutcome) => settled.emit('outcome', outcome);
    const describe = (job: { id: string; task_identifier: string; attempts: number; max_attempts: number }) => ({
      id: job.id,
      task: job.task_identifier,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
    });
    events.on('job:success', ({ job }) => report({ ...describe(job), status: 'succeeded' }));
    events.on('job:error', ({ job, error }) => {
      const outcome = describe(job);
      const context = { err: error, task: outcome.task, jobId: outcome.id, attempt: outcome.attempt, maxAttempts: outcome.maxAttempts };
      if (job.attempts >= job.max_attempts) {
        app.log.error(context, 'job failed for the last time; the queue gave up on it');
        report({ ...outcome, status: 'gave-up', error });
      } else {
        app.log.warn(context, 'job failed; it will be retried');
        report({ ...outcome, status: 'will-retry', error });
      }
    });

    app.addHook('onReady', async () => {
      runner = await run({
        pgPool: poolOf(app.db),
        taskList: tasks,
        parsedCronItems: parseCronItems(cronItems),
        concurrency: WORKER_CONCURRENCY,
        pollInterval: WORKER_POLL_INTERVAL_MS,
        gracefulShutdownAbortTimeout: options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS,
        // The app handles signals itself, and closes the worker in onClose.
        noHandleSignals: true,
        logger: workerLogger(app.log),
        events,
        // Through the batcher, which closing waits for, so that the outcome of the last jobs is
        // written before the app lets go of the database.
        preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
      });
      runner.promise.catch((error: unknown) => app.log.error({ err: error }, 'the job worker stopped'));
    });

    app.addHook('onClose', async () => {
      try {
        await runner?.stop();
      } finally {
        for (const listener of stoppedListeners) await listener();
      }
    });
  },
  { name: 'jobs' },
);
