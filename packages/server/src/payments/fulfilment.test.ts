import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { bookings, products } from '../db/schema/index.ts';
import { fulfilPayment, NotFulfillableError } from './fulfilment.ts';
import { paidIntents, paymentOf, paymentsOfProduct, withRefund } from '../../test/payment-fixtures.ts';
import { SimulatedPaymentProvider } from './simulated-provider.ts';

const t = setupTestApp();

describe('fulfilPayment', () => {
  it('sells once when the same payment arrives several times at the same moment (buyer and webhook)', async () => {
    const provider = new SimulatedPaymentProvider(t.db);
    const { product, buyers, intents } = await paidIntents(t.db, provider, 1);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => fulfilPayment({ db: t.db, payments: provider }, intents[0]!)),
    );
    expect(results.map((r) => r.outcome)).toEqual(Array(6).fill('sold'));
    expect(results.filter((r) => r.outcome === 'sold' && r.firstTime)).toHaveLength(1);
    expect(await paymentsOfProduct(t.db, product.id)).toHaveLength(1);
    expect(await provider.refundOf(intents[0]!.id)).toBeUndefined();
    const [booking] = await t.db.select().from(bookings).where(eq(bookings.id, buyers[0]!.booking.id));
    expect(booking!.paymentStatus).toBe('paid');
  });

  it('keeps a refund owed when the provider fails, and makes it when the payment arrives again', async () => {
    const simulated = new SimulatedPaymentProvider(t.db);
    let refundsRefused = 1;
    const flaky = withRefund(simulated, async (input) => {
      if (refundsRefused-- > 0) throw new Error('connection reset');
      return simulated.refund(input);
    });
    const { product, intents } = await paidIntents(t.db, simulated, 2);
    const [winner, loser] = intents as [(typeof intents)[0], (typeof intents)[0]];

    expect((await fulfilPayment({ db: t.db, payments: flaky }, winner)).outcome).toBe('sold');
    const pending = await fulfilPayment({ db: t.db, payments: flaky }, loser);
    expect(pending).toMatchObject({ outcome: 'refund-pending', reason: 'product-sold' });
    expect(await paymentOf(t.db, 'simulated', loser.id)).toMatchObject({ status: 'refund_pending', refundId: null });

    const retried = await fulfilPayment({ db: t.db, payments: flaky }, loser);
    expect(retried).toMatchObject({ outcome: 'refunded', reason: 'product-sold' });
    const refundId = await simulated.refundOf(loser.id);
    expect(await paymentOf(t.db, 'simulated', loser.id)).toMatchObject({ status: 'refunded', refundId });
    expect((await paymentsOfProduct(t.db, product.id)).map((row) => row.status).sort()).toEqual(['refunded', 'succeeded']);
  });

  it('refunds a payment whose booking was deleted before it arrived', async () => {
    const provider = new SimulatedPaymentProvider(t.db);
    const { product, buyers, intents } = await paidIntents(t.db, provider, 1);
    await t.db.delete(bookings).where(eq(bookings.id, buyers[0]!.booking.id));
    const result = await fulfilPayment({ db: t.db, payments: provider }, intents[0]!);
    expect(result).toMatchObject({ outcome: 'refunded', reason: 'booking-gone' });
    const [unsold] = await t.db.select().from(products).where(eq(products.id, product.id));
    expect(unsold!.inStock).toBe('available');
  });

  it('refuses an intent that has not succeeded or was not made for a booking', async () => {
    const provider = new SimulatedPaymentProvider(t.db);
    const intent = { id: 'pi_x', status: 'succeeded', amountCents: 100, currency: 'usd', metadata: {} };
    await expect(fulfilPayment({ db: t.db, payments: provider }, intent)).rejects.toThrow(NotFulfillableError);
    await expect(
      fulfilPayment({ db: t.db, payments: provider }, { ...intent, status: 'processing', metadata: { bookingId: 'a', productId: 'b', buyerId: 'c' } }),
    ).rejects.toThrow(NotFulfillableError);
  });
});
