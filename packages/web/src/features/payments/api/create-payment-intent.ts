import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { CreatePaymentIntentResponse } from '@furniture/contract';
import { paymentKeys } from '../../../lib/query-keys.ts';

/**
 * POST /create-payment-intent: the client secret the card form confirms. Held for the page's
 * life and never retried automatically, so one visit opens one intent.
 */
export const paymentIntentQuery = (bookingId: string, productPrice: number) =>
  queryOptions({
    queryKey: paymentKeys.intent(bookingId),
    queryFn: () =>
      api<CreatePaymentIntentResponse>('/create-payment-intent', {
        method: 'POST',
        json: { bookingId, productPrice },
      }).then((r) => r.clientSecret),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    meta: { private: true },
  });
