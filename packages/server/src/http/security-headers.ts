import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers (helmet's: content-security policy, HSTS, nosniff, ...) are the same for
 * every response, so they are computed once at start and given to each reply, instead of building
 * the policy again per request. They are the reply's headers, not the raw response's: Node then
 * checks each once as the head is written, where `setHeader` on the raw response checked and
 * stored each again per request. A route that sets one of them itself (a picture's cross-origin
 * resource policy) wins, as it sets it later.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, recorder, () => undefined);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
