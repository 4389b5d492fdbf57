import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import type { PayoutAccountStatus } from '@furniture/contract';
import type { Database } from '../db/client.ts';
import { payoutAccounts } from '../db/schema/index.ts';
import { createStripeClient, type StripeProviderOptions } from '../payments/stripe-provider.ts';
import { PayoutRefusedError, type PayoutProvider } from './payout-provider.ts';

export interface StripePayoutSettings {
  secretKey: string;
  /** Where Stripe's onboarding sends the seller back to: the Earnings screen. */
  returnUrl: string;
}

type PayoutAccountRow = typeof payoutAccounts.$inferSelect;

/** What Stripe says an account can do now. */
const abilitiesOf = (account: Stripe.Account) => ({
  payoutsEnabled: account.payouts_enabled,
  transfersActive: account.capabilities?.transfers === 'active',
});

const statusOf = (row: PayoutAccountRow | undefined): PayoutAccountStatus =>
  !row ? 'not-set-up' : row.payoutsEnabled && row.transfersActive ? 'ready' : 'details-needed';

/**
 * Payouts through Stripe Connect (decision 42): each seller has an Express account, onboarded on
 * Stripe's own pages, and a payout is a transfer from the platform's balance to that account; Stripe
 * then pays the account out to the seller's bank on its payout schedule.
 */
export class StripePayoutProvider implements PayoutProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(
    private readonly db: Database,
    private readonly settings: StripePayoutSettings,
    options: StripeProviderOptions = {},
  ) {
    this.stripe = createStripeClient(settings.secretKey, options);
  }

  private async rowOf(sellerId: string): Promise<PayoutAccountRow | undefined> {
    const [row] = await this.db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, sellerId));
    return row;
  }

  private async record(account: Stripe.Account): Promise<PayoutAccountRow | undefined> {
    const [row] = await this.db
      .update(payoutAccounts)
      .set({ ...abilitiesOf(account), updatedAt: new Date() })
      .where(eq(payoutAccounts.stripeAccountId, account.id))
      .returning();
    return row;
  }

  async accountStatusOf(sellerId: string): Promise<PayoutAccountStatus> {
    const row = await this.rowOf(sellerId);
    if (!row || statusOf(row) === 'ready') return statusOf(row);
    // Not ready as last recorded: the seller may just be back from onboarding, before the webhook.
    try {
      return statusOf(await this.record(await this.stripe.accounts.retrieve(row.stripeAccountId)));
    } catch {
      // Stripe cannot be asked now; the webhook records the change when it comes.
      return statusOf(row);
    }
  }

  async onboardingLinkFor(seller: { id: string; email: string }): Promise<{ status: PayoutAccountStatus; url: string }> {
    let row = await this.rowOf(seller.id);
    if (!row) {
      // One account per seller, also when two requests race: the key makes Stripe answer the same one.
      const account = await this.stripe.accounts.create(
        { type: 'express', email: seller.email, capabilities: { transfers: { requested: true } }, metadata: { sellerId: seller.id } },
        { idempotencyKey: `payout-account:${seller.id}` },
      );
      await this.db
        .insert(payoutAccounts)
        .values({ sellerId: seller.id, stripeAccountId: account.id, ...abilitiesOf(account) })
        .onConflictDoNothing({ target: payoutAccounts.sellerId });
      row = (await this.rowOf(seller.id))!;
    }
    const link = await this.stripe.accountLinks.create({
      account: row.stripeAccountId,
      type: 'account_onboarding',
      // An expired or used link also comes back here, where "Continue setting up" makes a new one.
      refresh_url: this.settings.returnUrl,
      return_url: this.settings.returnUrl,
    });
    return { status: statusOf(row), url: link.url };
  }

  async accountUpdated(accountId: string): Promise<void> {
    const [row] = await this.db.select().from(payoutAccounts).where(eq(payoutAccounts.stripeAccountId, accountId));
    if (!row) return;
    // Events may arrive out of order: the account as Stripe has it now is what counts.
    await this.record(await this.stripe.accounts.retrieve(accountId));
  }

  async payout({ sellerId, amountCents, idempotencyKey }: { sellerId: string; amountCents: number; idempotencyKey: string }) {
    const row = await this.rowOf(sellerId);
    if (!row) throw new PayoutRefusedError('The seller has no Stripe account.');
    try {
      const transfer = await this.stripe.transfers.create(
        { amount: amountCents, currency: 'usd', destination: row.stripeAccountId, transfer_group: idempotencyKey, metadata: { sellerId } },
        { idempotencyKey },
      );
      return { reference: transfer.id };
    } catch (error) {
      // Stripe will not make this transfer (the account cannot receive one, the platform's balance is short): the money goes back.
      if (error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripePermissionError) {
        throw new PayoutRefusedError(error.message);
      }
      throw error;
    }
  }
}
