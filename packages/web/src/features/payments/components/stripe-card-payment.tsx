import { uiTexts } from '@furniture/contract';
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
        {uiTexts.payment.stripeNotSetUp}
      </p>
    );
  }
  return (
    <Suspense fallback={<span className="loading loading-spinner" role="status" aria-label={uiTexts.payment.loadingCardForm} />}>
      <StripeCardForm publishableKey={publishableKey} {...props} />
    </Suspense>
  );
}
