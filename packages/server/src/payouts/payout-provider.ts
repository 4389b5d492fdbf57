import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { simulatedPayouts } from '../db/schema/index.ts';

/**
 * Who pays a seller's money out (decision 34). Every call carries an idempotency key, the payout
 * row's own id: asked again with the same key, a provider answers the payout it already made.
 */
export interface PayoutProvider {
  readonly name: string;
  /** Pays `amountCents` to the seller; answers the provider's reference. Throws PayoutRefusedError when it will not pay. */
  payout(request: { sellerId: string; amountCents: number; idempotencyKey: string }): Promise<{ reference: string }>;
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
  };
}
