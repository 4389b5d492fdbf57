import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { defineRecurringTask } from '../jobs/job-queue.ts';
import { LiveEventHub } from './live-event-hub.ts';
import { pruneLiveEvents } from './live-events.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app server's open live event streams. Domains publish with `publishLiveEvent`. */
    liveEvents: LiveEventHub;
  }
}

/** Every hour, on one app server, events past their retention and expired tickets are deleted. */
export const pruneLiveEventsTask = defineRecurringTask('events.prune', { schedule: '17 * * * *' });

/**
 * The live events service: the fan-out of events to this app server's open streams (through the
 * database listener), their pruning (a recurring job), and, when the app closes, the end of every
 * stream so that clients reconnect to another app server.
 */
export const liveEventsPlugin = fp(
  async (app: FastifyInstance) => {
    const hub = new LiveEventHub(app.db, app.log);
    app.decorate('liveEvents', hub);
    app.addHook('onReady', () => hub.listen(app.databaseListener));
    app.addHook('preClose', async () => hub.endAll());

    app.jobs.handle(pruneLiveEventsTask, async (_tick, job) => {
      const pruned = await pruneLiveEvents(app.db);
      if (pruned > 0) job.log.info({ pruned }, 'pruned old live events');
    });
  },
  { name: 'live-events', dependencies: ['jobs', 'database-listener'] },
);
