import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { PayoutAccountStatus, payoutProviderNames } from '@furniture/contract';
import type { Database } from '../db/client.ts';
import { simulatedPayouts } from '../db/schema/index.ts';

export type PayoutProviderName = (typeof payoutProviderNames)[number];

/**
 * Who pays a seller's money out (decisions 34 and 42). Every payout carries an idempotency key, the
 * payout row's own id: asked again with the same key, a provider answers the payout it already made.
 */
export interface PayoutProvider {
  readonly name: PayoutProviderName;
  /** Pays `amountCents` to the seller; answers the provider's reference. Throws PayoutRefusedError when it will not pay. */
  payout(request: { sellerId: string; amountCents: number; idempotencyKey: string }): Promise<{ reference: string }>;
  /** Whether the seller's payouts can be made now: the simulated provider's always can. */
  accountStatusOf(sellerId: string): Promise<PayoutAccountStatus>;
  /** Stripe only: a link to Stripe's onboarding of the seller's account, made first when there is none. */
  onboardingLinkFor?(seller: { id: string; email: string }): Promise<{ status: PayoutAccountStatus; url: string }>;
  /** Stripe only: Stripe said an account changed (its webhook); what it can do now is recorded. */
  accountUpdated?(accountId: string): Promise<void>;
}

/** The provider said no for good (as opposed to a failure worth retrying): the money goes back to the balance. */
export class PayoutRefusedError extends Error {}

/**
 * The simulated payout provider of the product, for development, demos and tests, as the simulated
 * cards are for payments: it pays every payout at once and records it in `simulated_payouts` with a
 * reference shaped like a Stripe transfer id (`po_sim_…`). No money moves. Kept in the database, so
 * that every app server, and a server started after a crash, sees the same payouts.
 */
export function createSimulatedPayoutProvider(db: Database): PayoutProvider {
  return {
    name: 'simulated',
    async payout({ sellerId, amountCents, idempotencyKey }) {
      await db
        .insert(simulatedPayouts)
        .values({ id: `po_sim_${randomBytes(12).toString('hex')}`, idempotencyKey, destination: sellerId, amountCents })
        .onConflictDoNothing({ target: simulatedPayouts.idempotencyKey });
      const [made] = await db.select().from(simulatedPayouts).where(eq(simulatedPayouts.idempotencyKey, idempotencyKey));
      // As Stripe does, a key reused with other parameters is refused rather than answered.
      if (made!.amountCents !== amountCents || made!.destination !== sellerId) throw new PayoutRefusedError('idempotency key reused with other parameters');
      return { reference: made!.id };
    },
    accountStatusOf: async () => 'ready',
  };
}
