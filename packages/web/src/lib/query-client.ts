import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

const MAX_RETRIES = 3;

/** Retrying cannot change a refusal (4xx); network failures and server errors get three more tries. */
function shouldRetry(failureCount: number, error: unknown) {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_RETRIES;
}

export const queryClient = new QueryClient({
  // Failed fetches are only logged (section 8); screens keep their last data or show empty.
  queryCache: new QueryCache({ onError: (error) => console.error(error) }),
  defaultOptions: {
    queries: {
      retry: shouldRetry,
      retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
      gcTime: 5 * 60 * 1000,
      staleTime: 10 * 1000,
    },
  },
});
