import { eq } from 'drizzle-orm';
import { formatCents, notificationTexts, receiptTexts, webRoutes } from '@furniture/contract';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../db/client.ts';
import { payments, products, users } from '../db/schema/index.ts';
import { defineTask, enqueueJob } from '../jobs/job-queue.ts';
import { renderMail } from '../mail/mail-layout.ts';
import { queueMail } from '../mail/mail-queue.ts';
import { notify } from '../notifications/notify.ts';
import type { PaymentRow } from './payment-repository.ts';

/** What the buyer is told of their money: a receipt for each payment, a notice of each refund. */

export const sendReceiptTask = defineTask<{ paymentId: string }>('payments.send-receipt');

/** A payment with its seller's name (while the piece exists) and the piece's photo. */
async function paymentWithSeller(db: Executor, paymentId: string) {
  const [row] = await db
    .select({ payment: payments, sellerName: users.name, productImage: products.productImage })
    .from(payments)
    .leftJoin(products, eq(products.id, payments.productId))
    .leftJoin(users, eq(users.id, products.sellerId))
    .where(eq(payments.id, paymentId));
  return row;
}

/**
 * In the transaction of the sale: the buyer's receipt as a notification, and the job that e-mails
 * it. The receipt is e-mailed whatever the buyer's notification settings say, so the notification
 * itself is not.
 */
export async function tellBuyerOfPayment(tx: Executor, payment: PaymentRow): Promise<void> {
  if (!payment.buyerId) return;
  const found = await paymentWithSeller(tx, payment.id);
  await notify(tx, {
    to: payment.buyerId,
    kind: 'payment-sent',
    text: notificationTexts.paymentSent(formatCents(payment.amountCents), payment.productName, found?.sellerName ?? '', payment.transactionId),
    link: webRoutes.dashboard.myOrders,
    ...(found?.productImage ? { image: found.productImage } : {}),
    byEmail: false,
  });
  await enqueueJob(tx, sendReceiptTask, { paymentId: payment.id });
}

/** A payment went back to its buyer: they are told (in the app, and by e-mail as they chose). */
export async function tellBuyerOfRefund(db: Executor, payment: PaymentRow): Promise<void> {
  if (!payment.buyerId) return;
  await notify(db, {
    to: payment.buyerId,
    kind: 'payment-refunded',
    text: notificationTexts.paymentRefunded(formatCents(payment.amountCents), payment.productName),
    link: webRoutes.dashboard.myOrders,
  });
}

/** The receipt e-mail: the piece, the seller, the amount, the transaction id, and when the seller is paid. */
export function registerPaymentNotices(app: FastifyInstance) {
  app.jobs.handle(sendReceiptTask, async ({ paymentId }) => {
    const found = await paymentWithSeller(app.db, paymentId);
    if (!found?.payment.buyerEmail) return;
    const { payment, sellerName } = found;
    const amount = formatCents(payment.amountCents);
    const content = {
      heading: receiptTexts.heading(amount),
      paragraphs: [
        receiptTexts.piece(payment.productName),
        ...(sellerName ? [receiptTexts.seller(sellerName)] : []),
        receiptTexts.amount(amount),
        receiptTexts.transaction(payment.transactionId),
        receiptTexts.paidAt(payment.createdAt.toUTCString()),
        receiptTexts.protection(app.config.releaseAfterHours),
      ],
      action: { label: receiptTexts.openOrders, path: webRoutes.dashboard.myOrders },
    };
    await queueMail(app.db, { to: payment.buyerEmail, subject: receiptTexts.subject(payment.productName), ...renderMail(content, app.config.publicUrl) });
  });
}
