import type { Booking, DataResponse } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { paymentKeys } from '../../../lib/query-keys.ts';

/** GET /dashboard/payment/{id} with the bearer token: the booking being paid. */
export const paymentBookingQuery = (bookingId: string) =>
  queryOptions({
    queryKey: paymentKeys.booking(bookingId),
    queryFn: ({ signal }) =>
      api<DataResponse<Booking>>(`/dashboard/payment/${encodeURIComponent(bookingId)}`, { signal }).then(
        (r) => r.data,
      ),
    meta: { private: true },
  });

/** The route loader of /dashboard/payment/{bookingId} (section 2). */
export function paymentBookingLoader({ params }: LoaderFunctionArgs) {
  return queryClient.ensureQueryData(paymentBookingQuery(params.bookingId ?? ''));
}
