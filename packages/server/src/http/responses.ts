import { errorResponse } from '@furniture/contract';

/** The error answers every API route may give, for the OpenAPI document. */
export const errorResponses = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
} as const;
