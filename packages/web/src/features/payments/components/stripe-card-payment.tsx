import { lazy, Suspense } from 'react';
import { useAppConfig } from '../../../lib/app-config.ts';
import type { CardPaymentProps } from './card-payment-props.ts';

// Its own chunk: the Stripe packages are downloaded, and Stripe.js loaded, only when Stripe is the provider.
const StripeCardForm = lazy(() => import('./stripe-card-form.tsx'));

/** Stripe Elements with the publishable key the server announces in GET /api/config. */
export function StripeCardPayment(props: CardPaymentProps) {
  const { data: config } = useAppConfig();
  const publishableKey = config?.stripePublishableKey;
  if (!publishableKey) {
    return (
      <p className="text-red-700" role="alert">
        Card payments are not set up on this server.
      </p>
    );
  }
  return (
    <Suspense fallback={<span className="loading loading-spinner" role="status" aria-label="Loading the card form" />}>
      <StripeCardForm publishableKey={publishableKey} {...props} />
    </Suspense>
  );
}
