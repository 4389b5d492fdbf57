import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

/**
 * Query parameters that carry a secret, never logged: the live event stream's one-time ticket, the
 * unsubscribe link's token, a sign-in provider's code and state, and any signed link's signature.
 */
const SECRET_QUERY_PARAMETER = /^(?:token|ticket|secret|signature|sig|code|state|key)$|(?:Token|Ticket|Secret|Signature|[_-]token|[_-]secret|[_-]signature)$/;

/**
 * A query parameter: its name runs from a `?` or `&` to the `=`, and holds neither. A name that
 * could hold a `?` would be tried from every `?` of a URL to its end, work growing with the square
 * of a URL made of them: one long URL would hold the event loop as long as thousands of requests.
 */
const QUERY_PARAMETER = /([?&])([^=&#?]*)=([^&#]*)/g;

/**
 * An e-mail address in a URL, plain or percent-encoded, from the separator before it to the next.
 * It is tried only where a part of the URL starts (the lookbehind): tried at every character, each
 * try would read to the part's end and back, work growing with the square of a value's length (an
 * id's would cost as much as the rest of the log line).
 */
const EMAIL_IN_URL = /(?<=^|[&=?/#\s])[^&=?/#\s]+(?:@|%40)[^&=?/#\s]+/gi;

/** A URL as it may be logged: the values of secret query parameters and every e-mail address replaced. */
export function redactUrl(url: string): string {
  return url
    .replace(QUERY_PARAMETER, (whole, separator: string, name: string) =>
      SECRET_QUERY_PARAMETER.test(name.toLowerCase()) || SECRET_QUERY_PARAMETER.test(name) ? `${separator}${name}=[redacted]` : whole,
    )
    .replace(EMAIL_IN_URL, '[email]');
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

/**
 * Fastify's request logging, one line per answered request instead of two: the request
 * (`serializeRequest`), the status and the time taken in ms, with Fastify's field names. Every
 * field is chosen here and none holds a secret, so the line goes through a logger without the
 * censoring every other line gets (`censorSecrets`): censoring the two lines Fastify logs for
 * each request cost a busy server as much as answering it.
 */
export class RequestLog extends LogController {
  constructor(private readonly lines: Logger) {
    super();
  }

  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) return super.requestCompleted(error, request, reply);
    this.lines.info(
      { reqId: request.id, req: serializeRequest(request), res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
  }
}

/** Names of fields that hold a secret, wherever they appear in a logged object. */
const SECRET_FIELDS = new Set([
  'password',
  'passwordHash',
  'password_hash',
  'token',
  'refreshToken',
  'accessToken',
  'tokenHash',
  'token_hash',
  'ticket',
  'clientSecret',
  'client_secret',
  'secret',
  'jwtSecret',
  'card',
  'cardNumber',
  'cvc',
  'authorization',
  'cookie',
  'set-cookie',
]);

const CENSORED = '[redacted]';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && [Object.prototype, null].includes(Object.getPrototypeOf(value));

/**
 * A log line's fields with the value of every secret field replaced, at the top of the line and
 * one level down, so a secret logged by mistake never reaches the log. The logger calls it for each
 * line as it writes it (pino's `formatters.log`); errors and requests keep their serializers.
 * pino's own `redact` did this too, but also censored the request id Fastify gives each request's
 * logger as it made it, a tenth of the time a cached read took.
 */
export function censorSecrets(fields: Record<string, unknown>, levelsBelow = 1): Record<string, unknown> {
  const censored: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    censored[name] = SECRET_FIELDS.has(name) ? CENSORED : levelsBelow > 0 && isPlainObject(value) ? censorSecrets(value, levelsBelow - 1) : value;
  }
  return censored;
}

/** Fields of an error worth logging; the others (a query's parameters, a row in `detail`) may hold secrets. */
const LOGGED_ERROR_FIELDS = ['code', 'constraint', 'table', 'column', 'routine', 'statusCode'] as const;

/**
 * The query builder puts a failed statement's parameters into its message ("params: …"), and so
 * into the stack's first line: a new user's password hash, a refresh token's hash. They are cut.
 */
const withoutQueryParameters = (text: string) => text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, '\nparams: [redacted]');

/**
 * Errors as logged: type, message, stack and the database's error code and constraint, for the
 * error and its causes. Never a query's parameters, nor PostgreSQL's `detail`, which can quote
 * the whole row.
 */
interface LoggedError {
  [field: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  const logged: LoggedError = {
    type: error.constructor.name,
    message: withoutQueryParameters(error.message),
    stack: withoutQueryParameters(error.stack ?? ''),
  };
  for (const field of LOGGED_ERROR_FIELDS) {
    if (field in error) logged[field] = (error as unknown as Record<string, unknown>)[field];
  }
  if (error.cause !== undefined && depth < 5) logged.cause = serializeError(error.cause, depth + 1);
  return logged;
}
