import { api } from '../../../lib/api-client.ts';

export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export interface PaymentIntentResult {
  id: string;
  status: string;
}

/**
 * Confirms a card payment with the simulated provider, which answers like Stripe does:
 * the payment intent, or a 402 whose error message is shown under the card field.
 */
export async function confirmSimulatedPayment(input: {
  clientSecret: string;
  card: CardDetails;
  billingDetails: { name: string; email: string };
}): Promise<PaymentIntentResult> {
  const response = await api<{ paymentIntent: PaymentIntentResult }>('/payments/simulated/confirm', {
    method: 'POST',
    json: input,
  });
  return response.paymentIntent;
}
