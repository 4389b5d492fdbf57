import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationTexts, receiptTexts } from '@furniture/contract';
import type { Config } from '../config.ts';
import { setupTestApp } from '../../test/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.ts';
import { notifications } from '../db/schema/index.ts';
import { bookingStep, saleOf } from '../../test/sale-fixtures.ts';
import { chargeAtProvider, payByCard, postPayment } from '../../test/payment-fixtures.ts';

let smtp: TestSmtpServer;
const overrides: Partial<Config> = {};
beforeAll(async () => {
  smtp = await startSmtpServer();
  overrides.mail = { smtpUrl: smtp.url, from: 'Used Furniture <shop@furniture.example.com>' };
});
afterAll(() => smtp.close());

const t = setupTestApp(overrides);

/** Waits for the mail with this subject to this address to reach the SMTP server, however long the job queue takes. */
async function mailTo(to: string, subject: string) {
  for (;;) {
    const found = smtp.received.find((mail) => mail.message.subject === subject && mail.envelope.to.includes(to));
    if (found) return found;
    await smtp.nextMail();
  }
}

async function notificationsOf(userId: string, kind: 'payment-sent' | 'payment-refunded') {
  return t.db.select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.kind, kind)));
}

describe('the buyer is told of their money', () => {
  it('a payment brings a receipt: a notification, and an e-mail with the piece, seller, amount, transaction id and when the seller is paid', async () => {
    const sale = await saleOf(t.app, t.db, { resalePrice: '150.00' });
    const { user, booking, headers } = sale.buyers[0]!;
    const { transactionId } = await payByCard(t.app, headers, booking.id);
    // Posting it again sends no second receipt.
    await postPayment(t.app, headers, { transactionId, productId: sale.product.id, bookingId: booking.id });

    const told = await notificationsOf(user.id, 'payment-sent');
    expect(told.map((row) => row.text)).toEqual([
      notificationTexts.paymentSent('$150.00', sale.product.productName, sale.seller.name, transactionId),
    ]);
    // The receipt e-mail is the notification's e-mail: it is not sent twice, nor put in a digest.
    expect(told[0]!.emailedAt).not.toBeNull();

    const receipt = await mailTo(user.email, receiptTexts.subject(sale.product.productName));
    for (const line of [
      receiptTexts.heading('$150.00'),
      receiptTexts.piece(sale.product.productName),
      receiptTexts.seller(sale.seller.name),
      receiptTexts.amount('$150.00'),
      receiptTexts.transaction(transactionId),
      receiptTexts.protection(t.config.releaseAfterHours),
    ]) {
      expect(receipt.message.text).toContain(line);
    }
    expect(smtp.received.filter((mail) => mail.message.subject === receiptTexts.subject(sale.product.productName))).toHaveLength(1);
  });

  it('the seller’s refund, and the refund of a payment that lost the piece, each tell the buyer once', async () => {
    const sale = await saleOf(t.app, t.db, { resalePrice: '80.00', buyerCount: 2 });
    const [winner, loser] = sale.buyers as [(typeof sale.buyers)[0], (typeof sale.buyers)[0]];
    const lost = await chargeAtProvider(t.app, loser.headers, loser.booking.id);
    await payByCard(t.app, winner.headers, winner.booking.id);
    await postPayment(t.app, loser.headers, { transactionId: lost.transactionId, productId: sale.product.id, bookingId: loser.booking.id });
    expect((await notificationsOf(loser.user.id, 'payment-refunded')).map((row) => row.text)).toEqual([
      notificationTexts.paymentRefunded('$80.00', sale.product.productName),
    ]);
    expect(await notificationsOf(loser.user.id, 'payment-sent')).toEqual([]);

    expect((await bookingStep(t.app, sale.sellerHeaders, winner.booking.id, 'refund')).statusCode).toBe(200);
    expect((await notificationsOf(winner.user.id, 'payment-refunded')).map((row) => row.text)).toEqual([
      notificationTexts.paymentRefunded('$80.00', sale.product.productName),
    ]);
    // Told by e-mail too, as their settings say (one e-mail each by default).
    await mailTo(winner.user.email, notificationTexts.paymentRefunded('$80.00', sale.product.productName));
  });
});
