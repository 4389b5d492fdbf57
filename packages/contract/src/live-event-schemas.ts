import { z } from 'zod';
import { bigintText } from './schemas.ts';

/**
 * Live events: what the server pushes to a signed-in person's open tabs (a new message, an answered
 * offer). `GET /api/events` streams them as server-sent events, or answers a page of them as JSON
 * for clients that poll.
 */

/** An event: its id (a resume point: later events have greater ids), its type and its data. */
export const liveEvent = z.object({
  id: z.string(),
  type: z.string(),
  data: z.unknown(),
});
export type LiveEvent = z.infer<typeof liveEvent>;

/** An event id as it travels in `?after=` and `Last-Event-ID`: a positive whole number. */
export const liveEventId = bigintText('must be an event id');

export const liveEventsQuery = z.object({
  /** Polling: events after this id. Without it, no events and the id to poll after from now on. */
  after: liveEventId.optional(),
  /** A one-time ticket from POST /api/events/ticket, for EventSource (which sends no Authorization header). */
  ticket: z.string().max(200).optional(),
});

/** A page of events for a polling client: ask again at once while `hasMore`, else after a pause. */
export const liveEventPage = z.object({
  events: z.array(liveEvent),
  /** Where the next poll continues (`?after=`): the last event's id, or the one asked after. */
  lastEventId: liveEventId,
  hasMore: z.boolean(),
});
export type LiveEventPage = z.infer<typeof liveEventPage>;

export const liveEventTicket = z.object({ ticket: z.string(), expiresAt: z.string() });
export type LiveEventTicket = z.infer<typeof liveEventTicket>;
