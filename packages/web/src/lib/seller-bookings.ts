import type { DataResponse, SellerBooking } from '@furniture/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { saleKeys } from './query-keys.ts';

/**
 * GET /seller/bookings: every booking on the signed-in seller's products. Shared by the dashboard
 * menu (its badge counts the open ones) and the Bookings on my products screen.
 */
export const sellerBookingsQuery = () =>
  queryOptions({
    queryKey: saleKeys.sellerBookings,
    queryFn: ({ signal }) =>
      api<DataResponse<SellerBooking[]>>('/seller/bookings', { query: { limit: '100' }, signal }).then((r) => r.data),
    meta: { private: true },
  });
