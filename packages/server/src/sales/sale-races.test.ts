import { describe, expect, it } from 'vitest';
import { saleMessages } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { payByCard, paymentsOfProduct, postPayment } from '../../test/payment-fixtures.ts';
import { bookingRow, bookingStep, listingStep, productRow, saleOf } from '../../test/sale-fixtures.ts';

/**
 * Two people acting on the same sale at the same moment: the row locks of sale-transitions.ts let
 * exactly one of them win, and what the loser did leaves nothing behind.
 */

const t = setupTestApp();
const ROUNDS = 5;

/** A sale whose first buyer has been charged by card and is about to post the payment. */
async function chargedSale(options: { accepted: boolean }) {
  const sale = await saleOf(t.app, t.db, { buyerCount: 1 });
  const { booking, headers } = sale.buyers[0]!;
  if (options.accepted) await bookingStep(t.app, sale.sellerHeaders, booking.id, 'accept');
  const { transactionId } = await payByCard(t.app, headers, booking.id);
  const recordPayment = () => postPayment(t.app, headers, { transactionId, productId: sale.product.id, bookingId: booking.id });
  return { sale, booking, recordPayment };
}

describe('races', () => {
  it('two bookings accepted at once: exactly one is accepted, the other is declined', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const sale = await saleOf(t.app, t.db, { buyerCount: 2 });
      const answers = await Promise.all(sale.buyers.map(({ booking }) => bookingStep(t.app, sale.sellerHeaders, booking.id, 'accept')));
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.statusCode === 409)!.json().message).toBe(saleMessages.acceptNotOpen);
      const statuses = await Promise.all(sale.buyers.map(async ({ booking }) => (await bookingRow(t.db, booking.id)).status));
      expect(statuses.sort()).toEqual(['accepted', 'declined']);
      expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'reserved' });
    }
  });

  it('a payment while the seller declines the accepted booking: either the sale or the decline, and a losing payment is refunded', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { sale, booking, recordPayment } = await chargedSale({ accepted: true });
      const [payment, decline] = await Promise.all([
        recordPayment(),
        bookingStep(t.app, sale.sellerHeaders, booking.id, 'decline', { reason: 'Changed my mind' }),
      ]);
      const [recorded] = await paymentsOfProduct(t.db, sale.product.id);
      const product = await productRow(t.db, sale.product.id);
      if (payment.statusCode === 200) {
        expect(decline.statusCode).toBe(409);
        expect(await bookingRow(t.db, booking.id)).toMatchObject({ status: 'paid' });
        expect(product.state).toBe('sold');
        expect(recorded).toMatchObject({ status: 'succeeded' });
      } else {
        expect(payment.statusCode).toBe(409);
        expect(decline.statusCode).toBe(200);
        expect(await bookingRow(t.db, booking.id)).toMatchObject({ status: 'declined', paymentStatus: 'unpaid' });
        expect(product.state).toBe('available');
        expect(recorded).toMatchObject({ status: 'refunded' });
      }
    }
  });

  it('a payment while the seller marks the piece sold elsewhere: one wins, and the money is never kept for an unsold piece', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { sale, booking, recordPayment } = await chargedSale({ accepted: false });
      const [payment, soldElsewhere] = await Promise.all([recordPayment(), listingStep(t.app, sale.sellerHeaders, sale.product.id, 'sold-elsewhere')]);
      expect([payment.statusCode, soldElsewhere.statusCode].sort()).toEqual([200, 409]);
      const [recorded] = await paymentsOfProduct(t.db, sale.product.id);
      const bookingNow = await bookingRow(t.db, booking.id);
      expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'sold' });
      if (payment.statusCode === 200) {
        expect(bookingNow.status).toBe('paid');
        expect(recorded!.status).toBe('succeeded');
      } else {
        expect(bookingNow).toMatchObject({ status: 'declined', statusReason: saleMessages.reasons.soldElsewhere });
        expect(recorded!.status).toBe('refunded');
      }
    }
  });

  it('the seller refunds while the buyer confirms receipt: exactly one of them ends the sale', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { sale, booking, recordPayment } = await chargedSale({ accepted: false });
      expect((await recordPayment()).statusCode).toBe(200);
      const [refund, received] = await Promise.all([
        bookingStep(t.app, sale.sellerHeaders, booking.id, 'refund'),
        bookingStep(t.app, sale.buyers[0]!.headers, booking.id, 'received'),
      ]);
      expect([refund.statusCode, received.statusCode].sort()).toEqual([200, 409]);
      const [recorded] = await paymentsOfProduct(t.db, sale.product.id);
      if (refund.statusCode === 200) {
        expect(await bookingRow(t.db, booking.id)).toMatchObject({ status: 'cancelled' });
        expect(recorded!.status).toBe('refunded');
        expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'available' });
      } else {
        expect(await bookingRow(t.db, booking.id)).toMatchObject({ status: 'closed' });
        expect(recorded!.status).toBe('succeeded');
        expect(await productRow(t.db, sale.product.id)).toMatchObject({ state: 'sold' });
      }
    }
  });

  it('an edit while the buyer pays: the edit lands before the sale or is refused after it, never half-way', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { sale, recordPayment } = await chargedSale({ accepted: false });
      const [payment, edit] = await Promise.all([
        recordPayment(),
        t.app.inject({
          method: 'PATCH',
          url: `/api/products/${sale.product.id}`,
          headers: sale.sellerHeaders,
          payload: { productName: 'Renamed during the sale', resalePrice: 99 },
        }),
      ]);
      expect(payment.statusCode).toBe(200);
      const product = await productRow(t.db, sale.product.id);
      expect(product.state).toBe('sold');
      expect(await paymentsOfProduct(t.db, sale.product.id)).toEqual([expect.objectContaining({ status: 'succeeded', amountCents: 15_000 })]);
      if (edit.statusCode === 200) {
        expect(product).toMatchObject({ productName: 'Renamed during the sale', resalePrice: '99.00' });
      } else {
        expect(edit.statusCode).toBe(409);
        expect(edit.json().message).toBe(saleMessages.editSold);
        expect(product).toMatchObject({ productName: sale.product.productName, resalePrice: '150.00', editedAt: null });
      }
    }
  });
});
