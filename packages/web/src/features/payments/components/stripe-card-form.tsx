import { labels, uiTexts } from '@furniture/contract';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
// The pure entry loads Stripe.js only when loadStripe is called, not on import.
import { loadStripe } from '@stripe/stripe-js/pure';
import { useId, useState, type FormEvent } from 'react';
import { FieldError } from '../../../components/form/field-error.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import type { CardPaymentProps } from './card-payment-props.ts';

/** One Stripe.js instance per publishable key for the page's life. */
const stripeByKey = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripeByKey.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    stripeByKey.set(publishableKey, stripe);
  }
  return stripe;
}

/** The card field and Pay button with Stripe Elements, used when the server's provider is Stripe. */
export default function StripeCardForm({ publishableKey, ...props }: CardPaymentProps & { publishableKey: string }) {
  return (
    <Elements stripe={stripeFor(publishableKey)}>
      <StripeCardFields {...props} />
    </Elements>
  );
}

function StripeCardFields({ clientSecret, ready, billingDetails, onSucceeded }: CardPaymentProps) {
  const id = useId();
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card || !clientSecret || !ready || processing) return;
    setError(null);
    setProcessing(true);
    try {
      const result = await stripe.confirmCardPayment(clientSecret, {
        payment_method: { card, billing_details: billingDetails },
      });
      if (result.error) setError(result.error.message ?? uiTexts.payment.failed);
      else if (result.paymentIntent.status === 'succeeded') {
        await onSucceeded({ id: result.paymentIntent.id, status: result.paymentIntent.status });
      } else setError(uiTexts.payment.notCompleted(result.paymentIntent.status));
    } finally {
      setProcessing(false);
    }
  }

  const errorId = `${id}-error`;
  return (
    <form onSubmit={handleSubmit} noValidate className="flex flex-col gap-4">
      <fieldset className="rounded-box border border-base-300 p-4" aria-describedby={error ? errorId : undefined}>
        <legend className="px-1 text-sm font-medium">{uiTexts.payment.card}</legend>
        <CardElement
          options={{ hidePostalCode: true }}
          onChange={(change) => setError(change.error?.message ?? null)}
        />
        <div className="mt-2">
          <FieldError id={errorId} message={error ?? undefined} />
        </div>
      </fieldset>
      <SubmitButton busy={processing} disabled={!stripe || !ready || processing || !clientSecret}>
        {labels.payment.pay}
      </SubmitButton>
    </form>
  );
}
