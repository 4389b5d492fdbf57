import type { FastifyInstance } from 'fastify';

/** The methods the API answers, which a page on the allowed origin may use. */
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';

/** How long a browser may keep a preflight's answer before asking again (s). */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * Cross-origin requests (CORS) from the one origin the configuration names (`CORS_ORIGIN`), with
 * credentials: pages there may call the API with the person's cookie and read the answer. Any
 * other origin gets no CORS header, so a browser keeps its pages from reading anything. Every
 * answer says it varies by Origin, so no cache in between hands one origin's answer to another.
 * A preflight (OPTIONS with Access-Control-Request-Method) is answered here, before any route or
 * access check, as the browser sends it without credentials.
 */
export function registerCors(app: FastifyInstance, allowedOrigin: string) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('vary', 'Origin');
    if (request.headers.origin !== allowedOrigin) return done();
    reply.header('access-control-allow-origin', allowedOrigin);
    reply.header('access-control-allow-credentials', 'true');
    const preflightFor = request.headers['access-control-request-method'];
    if (request.method !== 'OPTIONS' || !preflightFor) return done();
    const askedHeaders = request.headers['access-control-request-headers'];
    reply.header('access-control-allow-methods', ALLOWED_METHODS);
    reply.header('access-control-max-age', String(PREFLIGHT_MAX_AGE_S));
    if (askedHeaders) reply.header('access-control-allow-headers', askedHeaders).header('vary', 'Origin, Access-Control-Request-Headers');
    // Some browsers wait for a body unless a 204 says it has none.
    reply.code(204).header('content-length', '0').send();
  });
}
