import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { createUser } from '../demo/factories.ts';
import type { DatabaseListener } from '../db/listener.ts';
import { LiveEventHub, type LiveStream } from './live-event-hub.ts';
import { LIVE_EVENTS_CHANNEL, publishLiveEvent } from './live-events.ts';

const t = setupTestApp();

const hubs: LiveEventHub[] = [];
afterEach(() => hubs.splice(0).forEach((hub) => hub.endAll()));

/** A listener that hears nothing from the database: the test rings and reconnects it by hand. */
function handListener() {
  const channels = new Map<string, (payload: string) => void>();
  const reconnectHandlers: Array<() => void> = [];
  const listener: DatabaseListener = {
    async subscribe(channel, onPayload) {
      channels.set(channel, onPayload);
      return async () => void channels.delete(channel);
    },
    onReconnect(handler) {
      reconnectHandlers.push(handler);
      return () => undefined;
    },
    catchUp: async () => true,
    ride: (read) => void read(null),
  };
  return {
    listener,
    ring: (payload: string) => channels.get(LIVE_EVENTS_CHANNEL)!(payload),
    reconnect: () => reconnectHandlers.forEach((handler) => handler()),
  };
}

function recordingStream(userId: string): LiveStream & { received: LiveEvent[] } {
  const received: LiveEvent[] = [];
  return { userId, sessionId: null, lastId: 0n, received, send: (events) => received.push(...events), end: () => undefined };
}

/**
 * A hub on a hand-rung listener with one stream of a new user, which has been sent one event
 * ({ n: 1 }), so the hub is known to be listening and caught up.
 */
async function hubWithStream() {
  const user = await createUser(t.db);
  const { listener, ring, reconnect } = handListener();
  const hub = new LiveEventHub(t.db, t.app.log);
  hubs.push(hub);
  await hub.listen(listener);
  const stream = recordingStream(user.id);
  hub.add(stream);
  await publishLiveEvent(t.db, { to: user.id, type: 'test.first', data: { n: 1 } });
  ring(user.id);
  await vi.waitFor(() => expect(stream.received).toHaveLength(1));
  return { user, hub, stream, ring, reconnect };
}

describe('LiveEventHub', () => {
  it('catches its streams up when the listener reconnects, with what was announced while it was away', async () => {
    const { user, stream, reconnect } = await hubWithStream();

    // Announced while the listener was away: no ring reaches the hub.
    await publishLiveEvent(t.db, { to: user.id, type: 'test.missed', data: { n: 2 } });
    reconnect();

    await vi.waitFor(() => expect(stream.received.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }]));
  });

  it('sends each stream only what it has not had, when streams of one user are at different points', async () => {
    const { user, hub, stream: upToDate, ring } = await hubWithStream();
    const behind = recordingStream(user.id);
    hub.add(behind);
    await publishLiveEvent(t.db, { to: user.id, type: 'test.two', data: { n: 2 } });
    ring(user.id);

    await vi.waitFor(() => expect(behind.received.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }]));
    await vi.waitFor(() => expect(upToDate.received.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }]));
  });

  it('finds, when it looks, an event whose announcement was lost between its commit and the announcement', async () => {
    const { user, hub, stream } = await hubWithStream();

    // Stored and never rung: what a crash right after the commit leaves.
    await publishLiveEvent(t.db, { to: user.id, type: 'test.unannounced', data: { n: 2 } });
    await hub.lookForMissedEvents();

    await vi.waitFor(() => expect(stream.received.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }]));
  });
});
