import type { Config } from '../config.ts';
import type { Executor } from '../db/client.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { SimulatedPaymentProvider } from './simulated-provider.ts';

/**
 * The provider PAYMENT_PROVIDER chooses: simulated unless Stripe is configured. Stripe's SDK is
 * loaded only then: it is a large share of an idle server's memory.
 */
export async function createPaymentProvider(settings: Config['payments'], db: Executor): Promise<PaymentProvider> {
  if (settings.provider !== 'stripe') return new SimulatedPaymentProvider(db);
  const { StripePaymentProvider } = await import('./stripe-provider.ts');
  return new StripePaymentProvider({
    secretKey: settings.secretKey,
    webhookSecret: settings.webhookSecret,
    ...(settings.connectWebhookSecret ? { connectWebhookSecret: settings.connectWebhookSecret } : {}),
  });
}
