import { webRoutes } from '@furniture/contract';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createSimulatedPayoutProvider, type PayoutProvider } from './payout-provider.ts';

/**
 * Who pays sellers out: Stripe Connect when PAYMENT_PROVIDER=stripe, the simulated payout provider
 * otherwise (decision 42). Stripe's SDK is loaded only then, as for card payments.
 */
export async function createPayoutProvider(config: Pick<Config, 'payments' | 'publicUrl'>, db: Database): Promise<PayoutProvider> {
  if (config.payments.provider !== 'stripe') return createSimulatedPayoutProvider(db);
  const { StripePayoutProvider } = await import('./stripe-payout-provider.ts');
  return new StripePayoutProvider(db, { secretKey: config.payments.secretKey, returnUrl: `${config.publicUrl}${webRoutes.dashboard.earnings}` });
}
