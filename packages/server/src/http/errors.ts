import { serverMessages } from '@furniture/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError, type core } from 'zod';

/** An error whose message is safe to show to the caller. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The fields at fault, as validation errors name them. */
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message: string = serverMessages.signInToContinue) => new HttpError(401, message);
export const forbidden = (message: string = serverMessages.notAllowed) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

export interface FieldError {
  field: string;
  message: string;
}

function fieldErrors(issues: readonly core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => ({
    field: issue.path.map(String).join('.') || 'request',
    message: issue.message,
  }));
}

/** "password: Password must be 6 characters long" — the field first, then the rule it broke. */
function describe(errors: FieldError[]): string {
  const first = errors[0];
  if (!first) return serverMessages.invalidRequest;
  return first.message.toLowerCase().startsWith(first.field.toLowerCase())
    ? first.message
    : `${first.field}: ${first.message}`;
}

/** PostgreSQL's SQLSTATE of a failed query, which the query builder keeps as the error's cause. */
function databaseErrorCode(error: unknown): string | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ('code' in current && typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) return current.code;
  }
  return undefined;
}

/** Errors of a database that cannot be reached: refused or lost connections, a server shutting down or starting. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', '57P01', '57P02', '57P03']);
const UNREACHABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed/;

export function isDatabaseUnreachable(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = 'code' in current && typeof current.code === 'string' ? current.code : '';
    if (UNREACHABLE_CODES.has(code) || code.startsWith('08') || UNREACHABLE_MESSAGES.test(current.message)) return true;
  }
  return false;
}

/** Seconds a caller is asked to wait while the database is unreachable (it restarts within seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * One error handler for the whole API: known errors keep their status and message, validation
 * errors become 400 naming the field, and anything else is a 500 that reveals nothing.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError | ZodError, request, reply) => {
    if (error instanceof HttpError) {
      const { statusCode, headers, message, errors } = error;
      return reply.status(statusCode).headers(headers).send({ success: false, message, ...(errors ? { errors } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, '').replaceAll('/', '.') || (error.validationContext ?? 'request'),
        message: v.message ?? 'is invalid',
      }));
      return reply.status(400).send({ success: false, message: describe(errors), errors });
    }
    if (error instanceof ZodError) {
      const errors = fieldErrors(error.issues);
      return reply.status(400).send({ success: false, message: describe(errors), errors });
    }
    // A row this request pointed at was deleted while it ran (a foreign key violation): the caller
    // gets a conflict to retry or reload, not a server error.
    if (databaseErrorCode(error) === '23503') {
      return reply.status(409).send({ success: false, message: serverMessages.referenceRemoved });
    }
    if (isDatabaseUnreachable(error)) {
      request.log.warn({ err: error }, 'the database cannot be reached');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ success: false, message: serverMessages.databaseUnavailable });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ success: false, message: serverMessages.internalError });
    }
    // Fastify's own 4xx errors (malformed JSON, body too large, unsupported media type) have safe messages.
    return reply.status(status).send({ success: false, message: error.message });
  });

}
