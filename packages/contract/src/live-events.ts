/**
 * Constants and messages of live events (kept apart from their schemas, so that the web app's
 * live events client does not load zod for them).
 */

/** Events in one polling answer, at most. */
export const LIVE_EVENTS_PAGE_SIZE = 100;
/** How long a client waits before reconnecting to a stream that ended (the stream's `retry:`). */
export const LIVE_EVENTS_RETRY_MS = 2_000;
/** Seconds a stream ticket can be used in, once. */
export const LIVE_EVENT_TICKET_SECONDS = 60;

export const liveEventMessages = {
  ticketInvalid: 'This live updates link has expired. Reload the page to reconnect.',
} as const;
