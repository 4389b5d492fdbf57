import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { decodeJwt } from 'jose';
import { z } from 'zod';
import {
  ACCESS_TOKEN_MAX_AGE_SECONDS,
  dataOf,
  errorResponse,
  LIVE_EVENT_TICKET_SECONDS,
  LIVE_EVENTS_PAGE_SIZE,
  LIVE_EVENTS_RETRY_MS,
  liveEventId,
  liveEventMessages,
  liveEventPage,
  liveEventsQuery,
  liveEventTicket,
  type LiveEvent,
} from '@furniture/contract';
import { bearerToken, currentUser } from '../http/access.ts';
import { unauthorized } from '../http/errors.ts';
import { enforceLimit, RATE_LIMITS } from '../http/rate-limit.ts';
import type { LiveStream } from './live-event-hub.ts';
import { eventsAfter, issueTicket, latestEventId, redeemTicket } from './live-events.ts';

/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
export const HEARTBEAT_MS = 20_000;
/** A client this far behind (it does not read) is disconnected; it resumes from its last event. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

const errors = { 400: errorResponse, 401: errorResponse };

const frame = (event: LiveEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;

/** JSON for a client that asks for it and not for a stream; a stream otherwise (EventSource, fetch). */
function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/event-stream');
}

/**
 * When the stream must end: when the access token that opened it expires (the client reconnects
 * with a renewed one, so a session that ended stops receiving), or, for a ticket, after an access
 * token's lifetime.
 */
function streamDeadline(request: FastifyRequest): number {
  const token = bearerToken(request);
  const expiresAt = token ? decodeJwt(token).exp : undefined;
  return expiresAt ? expiresAt * 1000 : Date.now() + ACCESS_TOKEN_MAX_AGE_SECONDS * 1000;
}

export const liveEventRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The `?ticket=` credential of GET /events. */
  const ticketCredential = async (request: FastifyRequest) => {
    const { ticket } = request.query as { ticket?: string };
    if (!ticket) return null;
    const redeemed = await redeemTicket(app.db, ticket);
    if (!redeemed) throw unauthorized(liveEventMessages.ticketInvalid);
    return redeemed.userId;
  };

  app.get(
    '/events',
    {
      config: { access: 'signed-in', credential: ticketCredential },
      schema: {
        tags: ['live events'],
        summary: 'Live events for the signed-in user: a server-sent event stream, or a page of them as JSON',
        description: [
          'Authenticated by the bearer token, or by `?ticket=`, a one-time ticket from `POST /api/events/ticket` (for EventSource, which cannot send an Authorization header).',
          '',
          '**Stream** (any `Accept` but JSON, e.g. `text/event-stream`): `text/event-stream` of events `id: <id>`, `event: <type>`, `data: <JSON>`. It starts with `retry:` and a `ready` event whose id is where the stream starts, sends a `:` comment every 20 seconds, and ends when the access token that opened it expires (or, with a ticket, after five minutes), within a second of its session ending (sign-out, sign-out everywhere, a password change, a suspension, the account’s deletion; a ticket’s stream with any of the account’s sessions), and when the server shuts down: reconnect then with the `Last-Event-ID` header (EventSource does it by itself) and nothing is missed. Without `Last-Event-ID` the stream starts from now.',
          '',
          `**Polling** (\`Accept: application/json\`), for clients that cannot keep a stream open: answers \`{ events, lastEventId, hasMore }\`, at most ${LIVE_EVENTS_PAGE_SIZE} events after \`?after=\` (or \`Last-Event-ID\`), oldest first. Without either it answers no events and the \`lastEventId\` to poll after from now on. Poll again with \`?after=<lastEventId>\`: at once while \`hasMore\`, else after a pause (the web app waits 10 seconds).`,
          '',
          'Events are kept for seven days; ids only grow, and for each user they follow the order the events happened in.',
        ].join('\n'),
        querystring: liveEventsQuery,
        headers: z.object({ 'last-event-id': liveEventId.optional() }),
        response: { 200: dataOf(liveEventPage), ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const resumeAfter = request.query.after ?? request.headers['last-event-id'];
      if (wantsJson(request)) {
        const after = resumeAfter === undefined ? await latestEventId(app.db, user.id) : BigInt(resumeAfter);
        const events = await eventsAfter(app.db, user.id, after, LIVE_EVENTS_PAGE_SIZE + 1);
        const page = events.slice(0, LIVE_EVENTS_PAGE_SIZE);
        return {
          success: true as const,
          data: { events: page, lastEventId: (page.at(-1)?.id ?? after).toString(), hasMore: events.length > LIVE_EVENTS_PAGE_SIZE },
        };
      }
      await enforceLimit(app.db, { limit: RATE_LIMITS.liveConnectionsPerAccount, subject: user.id });
      const from = resumeAfter === undefined ? await latestEventId(app.db, user.id) : BigInt(resumeAfter);
      return openStream(request, reply, user.id, from);
    },
  );

  app.post(
    '/events/ticket',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['live events'],
        summary: 'A one-time ticket that opens the live event stream with EventSource',
        description: `Pass it as \`GET /api/events?ticket=<ticket>\` within ${LIVE_EVENT_TICKET_SECONDS} seconds; it works once.`,
        response: { 201: dataOf(liveEventTicket), 401: errorResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await enforceLimit(app.db, { limit: RATE_LIMITS.liveConnectionsPerAccount, subject: user.id });
      const { ticket, expiresAt } = await issueTicket(app.db, user.id);
      return reply.status(201).send({ success: true, data: { ticket, expiresAt: expiresAt.toISOString() } });
    },
  );

  /** Streams the user's events after `from` until the deadline, the client leaving or the app closing. */
  function openStream(request: FastifyRequest, reply: FastifyReply, userId: string, from: bigint) {
    const body = new PassThrough();
    let open = true;
    const token = bearerToken(request);
    const stream: LiveStream = {
      userId,
      sessionId: token ? (decodeJwt(token).sid as string) : null,
      lastId: from,
      send(events) {
        if (!open) return;
        body.write(events.map(frame).join(''));
        if (body.writableLength > MAX_BUFFERED_BYTES) stream.end();
      },
      end() {
        if (!open) return;
        open = false;
        clearInterval(heartbeat);
        clearTimeout(deadline);
        app.liveEvents.remove(stream);
        body.end();
      },
    };
    const heartbeat = setInterval(() => body.write(': heartbeat\n\n'), HEARTBEAT_MS);
    const deadline = setTimeout(() => stream.end(), Math.max(streamDeadline(request) - Date.now(), 0));
    reply.raw.on('close', () => stream.end());

    body.write(`retry: ${LIVE_EVENTS_RETRY_MS}\nid: ${from}\nevent: ready\ndata: {}\n\n`);
    app.liveEvents.add(stream);
    return reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache, no-transform')
      .header('x-accel-buffering', 'no')
      .send(body);
  }
};
