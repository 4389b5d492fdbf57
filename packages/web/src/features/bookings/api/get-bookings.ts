import type { Booking, DataResponse } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { bookingKeys } from '../../../lib/query-keys.ts';

/** GET /booking?email=: the signed-in buyer's orders. */
export const bookingsQuery = (email: string) =>
  queryOptions({
    queryKey: bookingKeys.of(email),
    queryFn: ({ signal }) =>
      api<DataResponse<Booking[]>>('/booking', { query: { email }, signal }).then((r) => r.data),
    meta: { private: true },
  });
