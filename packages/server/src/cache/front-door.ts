import type { IncomingMessage, OutgoingHttpHeader, RequestListener, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** An answer as the app sent it, status, headers and all, to send again as it is. */
export interface SentAnswer {
  status: 200 | 304;
  /** Names and values, one after the other, as `writeHead` takes them. */
  headers: OutgoingHttpHeader[];
  body: Buffer;
}

/** The headers of a computed answer that a kept one is sent again with (others are the request's own: CORS, security). */
export function answerHeaders(reply: FastifyReply): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  for (const name of ['content-type', 'link']) {
    const value = reply.getHeader(name);
    if (typeof value === 'string') headers.push([name, value]);
  }
  return headers;
}

/** What a front door handler sends: a recorded answer, and what is done once it is sent. */
export interface FrontDoorAnswer {
  answer: SentAnswer;
  onSent?: (request: IncomingMessage) => void;
}

/**
 * One kind of kept answer the front door may send. Undefined when the request is none of its
 * own; else a promise of the answer to send, or of undefined (or a failure) to leave the
 * request to Fastify, which answers it as it would anyway.
 */
export type FrontDoorHandler = (request: IncomingMessage) => Promise<FrontDoorAnswer | undefined> | undefined;

declare module 'fastify' {
  interface FastifyInstance {
    /** The handlers the front door asks, in the order added (see `frontDoorPlugin`). */
    frontDoor: { add(handler: FrontDoorHandler): void };
  }
}

/**
 * Records an answer as it goes out through Fastify, headers and all, for the front door to send
 * again: only one to a request without an Origin (CORS headers answer the Origin) that went out
 * with the status expected, sets no cookie (a cookie is the request's own) and whose body the
 * compression plugin left as it was given (it compresses for an encoding it knows and the caches
 * do not, such as zstd where Node has it: those bytes are not the ones recorded).
 */
export function recordWhenSent<Answer extends Omit<SentAnswer, 'headers'>>(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: Answer,
  record: (sent: Answer & SentAnswer) => void,
) {
  if (request.headers.origin !== undefined) return;
  const encoding = reply.getHeader('content-encoding');
  reply.raw.once('finish', () => {
    if (reply.statusCode !== answer.status || reply.hasHeader('set-cookie') || reply.getHeader('content-encoding') !== encoding) return;
    const headers = Object.entries(reply.getHeaders()).flatMap(([name, value]) => (value === undefined ? [] : [name, value]));
    record({ ...answer, headers });
  });
}

/**
 * The front door of the HTTP server, before Fastify: a GET whose answer is kept, and has already
 * gone out once through the app, is sent again as it was once a handler (the response cache's
 * public answers, a person's own lists) shows it current; anything else goes to Fastify.
 * Routing, the request and reply objects, the hooks (whose headers are in the recorded answer:
 * security, CORS without an Origin, cache-control) and the per-request logger cost more than the
 * rest of such an answer. Requests that carry an Origin (CORS answers depend on it) or arrive
 * while requests are logged (level info and below) or while the app closes go to Fastify.
 */
export const frontDoorPlugin = fp(
  async (app: FastifyInstance) => {
    const handlers: FrontDoorHandler[] = [];
    app.decorate('frontDoor', { add: (handler: FrontDoorHandler) => void handlers.push(handler) });

    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    if (['info', 'debug', 'trace'].includes(app.config.logLevel)) return;

    // Fastify's own listener, behind the front door; `inject` still calls it directly.
    const [fastify] = app.server.listeners('request') as RequestListener[];
    app.server.removeAllListeners('request');
    app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (request.method === 'GET' && request.headers.origin === undefined && !closing) {
        for (const handler of handlers) {
          const taken = handler(request);
          if (!taken) continue;
          void taken.then(
            (sent) => {
              if (!sent) return fastify!(request, response);
              response.writeHead(sent.answer.status, sent.answer.headers);
              response.end(sent.answer.body);
              sent.onSent?.(request);
            },
            () => fastify!(request, response),
          );
          return;
        }
      }
      fastify!(request, response);
    });
  },
  { name: 'front-door' },
);
