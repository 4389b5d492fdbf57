/**
 * What every card form of a payment provider receives. The page owns the client secret and
 * what happens after success; the form owns the card input and the provider's confirmation.
 */
export interface CardPaymentProps {
  /** Null until the server has opened the payment intent. */
  clientSecret: string | null;
  /** False until the provider is ready to take a card. */
  ready: boolean;
  billingDetails: { name: string; email: string };
  /** Called with the provider's payment intent once its status is 'succeeded'. */
  onSucceeded: (paymentIntent: { id: string; status: string }) => Promise<void>;
}
