import type { Config } from '../config.ts';
import type { Executor } from '../db/client.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { SimulatedPaymentProvider } from './simulated-provider.ts';
import { StripePaymentProvider } from './stripe-provider.ts';

/** The provider PAYMENT_PROVIDER chooses: simulated unless Stripe is configured. */
export function createPaymentProvider(settings: Config['payments'], db: Executor): PaymentProvider {
  return settings.provider === 'stripe'
    ? new StripePaymentProvider({ secretKey: settings.secretKey, webhookSecret: settings.webhookSecret })
    : new SimulatedPaymentProvider(db);
}
