import { uiTexts } from '@furniture/contract';
import type { AppConfig } from '../../../lib/app-config.ts';
import type { CardPaymentProps } from './card-payment-props.ts';
import { SimulatedCardForm } from './simulated-card-form.tsx';
import { StripeCardPayment } from './stripe-card-payment.tsx';

/** Picks the card form of the configured payment provider. */
export function CardPayment({ provider, ...props }: CardPaymentProps & { provider: AppConfig['paymentProvider'] | undefined }) {
  switch (provider) {
    case 'simulated':
    case undefined:
      return <SimulatedCardForm {...props} ready={props.ready && provider !== undefined} />;
    case 'stripe':
      return <StripeCardPayment {...props} />;
    default:
      return (
        <p className="text-red-700" role="alert">
          {uiTexts.payment.providerUnavailable(provider)}
        </p>
      );
  }
}
