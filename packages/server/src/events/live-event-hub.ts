import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent } from '@furniture/contract';
import type { Database } from '../db/client.ts';
import type { DatabaseListener } from '../db/listener.ts';
import { eventsAfter, LIVE_EVENTS_CHANNEL, SESSIONS_ENDED_CHANNEL, usersWithEventsAfter } from './live-events.ts';

/** An open stream of one user, on this app server. */
export interface LiveStream {
  readonly userId: string;
  /** The session whose access token opened it; null when a ticket did (ended with any of the user's sessions). */
  readonly sessionId: string | null;
  /** The last event id this stream has been sent. */
  lastId: bigint;
  send(events: readonly LiveEvent[]): void;
  end(): void;
}

/** Events read per query while catching a user's streams up. */
const FETCH_BATCH = 200;
/** After a failed read, the user's streams are caught up again this much later. */
const RETRY_AFTER_MS = 1_000;
/**
 * How often the hub looks for events its streams have not had without being told: an event is
 * announced after its commit (decision 25), and an announcement lost in between (a crash) must
 * only delay the event.
 */
export const LOOK_INTERVAL_MS = 5_000;

interface UserStreams {
  streams: Set<LiveStream>;
  reading: boolean;
  readAgain: boolean;
}

/**
 * Fan-out on one app server: the open streams of each user, and a NOTIFY doorbell. A notification
 * names users, not events; for each named user with streams here, the hub reads the user's events
 * after the stream that is furthest behind and sends each stream what it has not had. Reads of one
 * user never overlap (a ring during a read means read again after it), so every stream gets its
 * events once and in order; a stream that just opened is caught up the same way, and after the
 * listener reconnects every user here is caught up on what was announced while it was away. Every
 * LOOK_INTERVAL_MS the hub also rings, by itself, the users here with events their streams have not
 * had, in case an announcement was lost.
 */
export class LiveEventHub {
  private readonly users = new Map<string, UserStreams>();
  private lookTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  async listen(listener: DatabaseListener): Promise<void> {
    await listener.subscribe(LIVE_EVENTS_CHANNEL, (payload) => {
      for (const userId of payload.split(',')) this.wake(userId);
    });
    // A session that ended ends its streams here at once, whichever app server ended it.
    await listener.subscribe(SESSIONS_ENDED_CHANNEL, (payload) => {
      const [userId, sessionId] = payload.split(':');
      for (const stream of this.users.get(userId!)?.streams ?? []) {
        if (stream.sessionId === null || stream.sessionId === sessionId) stream.end();
      }
    });
    listener.onReconnect(() => {
      for (const userId of this.users.keys()) this.wake(userId);
    });
    this.lookTimer = setInterval(() => void this.lookForMissedEvents(), LOOK_INTERVAL_MS).unref();
  }

  /** Rings the users here that have events their streams have not had. */
  async lookForMissedEvents(): Promise<void> {
    const seen = [...this.users].map(([userId, user]) => ({ userId, afterId: furthestBehind(user) }));
    try {
      for (const userId of await usersWithEventsAfter(this.db, seen)) this.wake(userId);
    } catch (error) {
      this.log.warn({ err: error }, 'could not look for missed live events; looking again shortly');
    }
  }

  /** Adds a stream and sends it what it missed since its `lastId`. */
  add(stream: LiveStream): void {
    let user = this.users.get(stream.userId);
    if (!user) {
      user = { streams: new Set(), reading: false, readAgain: false };
      this.users.set(stream.userId, user);
    }
    user.streams.add(stream);
    this.wake(stream.userId);
  }

  remove(stream: LiveStream): void {
    const user = this.users.get(stream.userId);
    if (!user) return;
    user.streams.delete(stream);
    if (user.streams.size === 0) this.users.delete(stream.userId);
  }

  /** Open streams on this app server, of one user or of everyone. */
  streamCount(userId?: string): number {
    if (userId) return this.users.get(userId)?.streams.size ?? 0;
    let count = 0;
    for (const user of this.users.values()) count += user.streams.size;
    return count;
  }

  /** Ends every stream (the app is closing); clients reconnect to another app server. */
  endAll(): void {
    clearInterval(this.lookTimer);
    for (const user of this.users.values()) for (const stream of user.streams) stream.end();
    this.users.clear();
  }

  private wake(userId: string): void {
    const user = this.users.get(userId);
    if (!user) return;
    if (user.reading) {
      user.readAgain = true;
      return;
    }
    void this.catchUp(userId, user);
  }

  private async catchUp(userId: string, user: UserStreams): Promise<void> {
    user.reading = true;
    try {
      do {
        user.readAgain = false;
        if (user.streams.size === 0) return;
        const streams = [...user.streams];
        const events = await eventsAfter(this.db, userId, furthestBehind(user), FETCH_BATCH);
        for (const stream of streams) {
          const unseen = events.filter((event) => BigInt(event.id) > stream.lastId);
          if (unseen.length === 0) continue;
          stream.lastId = BigInt(unseen.at(-1)!.id);
          stream.send(unseen);
        }
        if (events.length === FETCH_BATCH) user.readAgain = true;
      } while (user.readAgain);
    } catch (error) {
      this.log.warn({ err: error, userId }, 'could not read live events; trying again shortly');
      setTimeout(() => this.wake(userId), RETRY_AFTER_MS).unref();
    } finally {
      user.reading = false;
    }
  }
}

/** The last event id of the user's stream that is furthest behind. */
function furthestBehind(user: UserStreams): bigint {
  let min: bigint | undefined;
  for (const stream of user.streams) if (min === undefined || stream.lastId < min) min = stream.lastId;
  return min ?? 0n;
}
