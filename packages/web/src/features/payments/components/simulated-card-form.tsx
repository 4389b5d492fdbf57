import { cardMessages, labels, uiTexts } from '@furniture/contract';
import { useId, useState, type FormEvent } from 'react';
import { FieldError } from '../../../components/form/field-error.tsx';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { confirmSimulatedPayment } from '../api/confirm-simulated-payment.ts';
import type { CardPaymentProps } from './card-payment-props.ts';

const digits = (value: string) => value.replace(/\D/g, '');

function formatCardNumber(value: string) {
  return digits(value)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

function formatExpiry(value: string) {
  const d = digits(value).slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d;
}

/**
 * Catches an incomplete card before anything is sent, with the card element's own messages;
 * everything else (a bad month, a past date, a declined card) is the provider's to judge.
 */
function readCard(number: string, expiry: string, cvc: string) {
  const cardNumber = digits(number);
  if (cardNumber.length < 12) return { error: cardMessages.incompleteNumber } as const;
  const exp = digits(expiry);
  if (exp.length !== 4) return { error: cardMessages.incompleteExpiry } as const;
  const cvcDigits = digits(cvc);
  if (cvcDigits.length < 3) return { error: cardMessages.incompleteCvc } as const;
  return {
    card: { number: cardNumber, expMonth: Number(exp.slice(0, 2)), expYear: 2000 + Number(exp.slice(2)), cvc: cvcDigits },
  } as const;
}

/** The card field and Pay button of the simulated provider, which behaves like Stripe. */
export function SimulatedCardForm({ clientSecret, ready, billingDetails, onSucceeded }: CardPaymentProps) {
  const id = useId();
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!clientSecret || !ready || processing) return;
    const read = readCard(number, expiry, cvc);
    if ('error' in read) {
      setError(read.error ?? null);
      return;
    }
    setError(null);
    setProcessing(true);
    try {
      const paymentIntent = await confirmSimulatedPayment({ clientSecret, card: read.card, billingDetails });
      if (paymentIntent.status === 'succeeded') await onSucceeded(paymentIntent);
      else setError(uiTexts.payment.notCompleted(paymentIntent.status));
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setProcessing(false);
    }
  }

  const errorId = `${id}-error`;
  return (
    <form onSubmit={handleSubmit} noValidate className="flex flex-col gap-4">
      <fieldset className="rounded-box border border-base-300 p-4" aria-describedby={error ? errorId : undefined}>
        <legend className="px-1 text-sm font-medium">{uiTexts.payment.card}</legend>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-[2fr_1fr_1fr]">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-number`} className="text-sm">
              {uiTexts.payment.cardNumber}
            </label>
            <input
              id={`${id}-number`}
              className="input w-full"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder={uiTexts.payment.cardNumberPlaceholder}
              required
              value={number}
              onChange={(event) => setNumber(formatCardNumber(event.target.value))}
            />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-expiry`} className="text-sm">
              {uiTexts.payment.expiry}
            </label>
            <input
              id={`${id}-expiry`}
              className="input w-full"
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder={uiTexts.payment.expiryPlaceholder}
              required
              value={expiry}
              onChange={(event) => setExpiry(formatExpiry(event.target.value))}
            />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-cvc`} className="text-sm">
              {uiTexts.payment.cvc}
            </label>
            <input
              id={`${id}-cvc`}
              className="input w-full"
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder={uiTexts.payment.cvc}
              required
              maxLength={4}
              value={cvc}
              onChange={(event) => setCvc(digits(event.target.value).slice(0, 4))}
            />
          </div>
        </div>
        <div className="mt-2">
          <FieldError id={errorId} message={error ?? undefined} />
        </div>
      </fieldset>
      <SubmitButton busy={processing} disabled={!ready || processing || !clientSecret}>
        {labels.payment.pay}
      </SubmitButton>
    </form>
  );
}
