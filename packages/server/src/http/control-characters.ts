import { CONTROL_CHARACTERS, controlCharactersMessage } from '@furniture/contract';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

/** Parsed JSON, a form or a query; not a buffer or a stream, which are not text. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as { constructor?: unknown } | null;
  // The query parser's objects have a prototype without a constructor.
  return prototype === null || prototype.constructor === Object || prototype.constructor === undefined;
}

/** The first string holding a control character, by its path ("text", "items.2.note"), in parsed JSON or a form. */
function firstControlCharacter(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return CONTROL_CHARACTERS.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = firstControlCharacter(item, path ? `${path}.${index}` : String(index));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isPlainObject(value)) {
    for (const [name, item] of Object.entries(value)) {
      const found = firstControlCharacter(name, path ? `${path}.${name}` : name) ?? firstControlCharacter(item, path ? `${path}.${name}` : name);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Refuses the request when one of its parts holds a control character (also for a multipart form's fields). */
export function refuseControlCharacters(parts: unknown[]) {
  for (const part of parts) {
    const field = firstControlCharacter(part, '');
    if (field === undefined) continue;
    const message = controlCharactersMessage(field || 'request');
    throw new HttpError(400, message, {}, [{ field: field || 'request', message }]);
  }
}

/**
 * One rule for every string a request carries, before any route sees it: the path's parameters
 * and the query as the request arrives (before credentials are checked), the body once it is
 * parsed. A control character (NUL above all, which PostgreSQL cannot store) is refused with 400
 * naming the field, so a new field cannot forget the rule. Register it before access control.
 * Headers are not looked at: Node's HTTP parser refuses a header holding any of these characters
 * with 400 before Fastify sees the request.
 */
export function registerControlCharacterCheck(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => refuseControlCharacters([request.params, request.query]));
  app.addHook('preValidation', async (request) => refuseControlCharacters([request.body]));
}
