import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers (helmet's: content-security policy, HSTS, nosniff, ...) are the same for
 * every response, so they are computed once at start and copied onto each response, instead of
 * building the policy again per request. They are set on the raw response, as helmet sets them,
 * so a route that sets one of them itself (a picture's cross-origin resource policy) wins.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, value]),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, recorder, () => undefined);
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
