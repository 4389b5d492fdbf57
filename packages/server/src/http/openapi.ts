import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Access } from './access.ts';

/** The OpenAPI spelling of a route's URL: {id} for :id, and the prefix root `/api/` as `/api` (Fastify answers both). */
export function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A stable name for client generators, from the method and the path below /api:
 * GET /api/products/{id} → getProductsById, POST /api/bookings/{id}/accept → postBookingsByIdAccept.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((segment) => segment && segment !== 'api')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      return param ? `By${capitalize(param[1]!)}` : segment.split('-').map(capitalize).join('');
    });
  return method.toLowerCase() + (words.length ? words.join('') : 'Root');
}

/** The security requirement of a route's declared access: none for public routes, else the bearer token. */
export function securityOf(access: Access | undefined) {
  return access === 'public' ? [] : [{ bearer: [] }];
}

/**
 * Builds each route's OpenAPI entry from its zod schemas, naming the operation and declaring its
 * security from `config.access`, so a new route is documented completely without writing either.
 */
export const openApiTransform: SwaggerTransform = (input) => {
  const { schema, url } = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const path = openApiPath(url);
  const method = [input.route.method].flat()[0]!;
  const documented = schema as FastifySchema & { operationId?: string; security?: unknown };
  return {
    url: path,
    schema: {
      ...documented,
      operationId: documented.operationId ?? operationIdOf(method, path),
      security: documented.security ?? securityOf(input.route.config?.access),
    },
  };
};
