import type { FastifyRequest } from 'fastify';

/** Query parameters that carry a secret (the live event stream's one-time ticket), never logged. */
const SECRET_QUERY_PARAMETERS = ['ticket'];

/** A URL as it may be logged: the values of secret query parameters replaced. */
export function redactUrl(url: string): string {
  return url.replace(new RegExp(`([?&](?:${SECRET_QUERY_PARAMETERS.join('|')})=)[^&#]*`, 'g'), '$1[redacted]');
}

/** Fastify's own request log fields, with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: [request.headers?.['accept-version']].flat()[0],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
