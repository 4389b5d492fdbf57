import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountTexts,
  booking,
  cardErrorResponse,
  createPaymentIntentBody,
  createPaymentIntentResponse,
  dataOf,
  errorResponse,
  idParams,
  MINIMUM_CHARGE_CENTS,
  paymentBody,
  paymentMessages,
  serverMessages,
  simulatedConfirmBody,
  simulatedConfirmResponse,
  simulatedPaymentMessages,
  successMessage,
} from '@furniture/contract';
import { currentUser, requireVerifiedEmail } from '../http/access.ts';
import { badRequest, conflict, HttpError, notFound } from '../http/errors.ts';
import { fulfilPayment } from './fulfilment.ts';
import { CURRENCY } from './money.ts';
import { paymentMetadataOf } from './payment-provider.ts';
import { watchIntent } from './payment-reconciliation.ts';
import { findBookingById } from '../bookings/booking-repository.ts';
import { findBookingOfBuyer, findBookingOfBuyerForProduct, findProductForSale } from './payment-repository.ts';
import { SimulatedPaymentProvider } from './simulated-provider.ts';
import { stripeWebhookRoutes } from './stripe-webhook-routes.ts';
import { paymentRefusal } from '../sales/sale-transitions.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse, 502: errorResponse };

/** A provider that fails or cannot be reached is a 502 for the caller; the details go to the log only. */
async function askProvider<T>(log: FastifyBaseLogger, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    log.error({ err: error }, 'payment provider call failed');
    throw new HttpError(502, serverMessages.payments.providerUnavailable);
  }
}

/** The idempotency key of a booking's intent: asking again for the same amount answers the same intent. */
export const intentKeyOf = (bookingId: string, amountCents: number) => `payment-intent:${bookingId}:${amountCents}`;

/** The specification's payment calls, the simulated provider's confirm call, and Stripe's webhook. */
export interface PaymentRouteOptions {
  /** Stripe's webhook said a connected account changed: the payouts domain records it (decision 42). */
  stripeAccountUpdated: (accountId: string) => Promise<unknown>;
}

export const paymentRoutes: FastifyPluginAsyncZod<PaymentRouteOptions> = async (app, { stripeAccountUpdated }) => {
  app.post(
    '/create-payment-intent',
    {
      config: { access: ['buy'] },
      schema: {
        tags: ['payments'],
        summary: "Start paying for one's own booking: answers the client secret for the card form",
        description:
          "The amount is, from the database, the booking's agreed price in US cents: the listing's price when it was booked, or the accepted offer's amount for the booking that offer made. A price in the request is ignored.",
        body: createPaymentIntentBody,
        response: { 200: createPaymentIntentResponse, ...errors },
      },
    },
    async (request) => {
      const buyer = currentUser(request);
      requireVerifiedEmail(buyer, accountTexts.server.verifyToPay);
      const found = await findBookingOfBuyer(app.db, request.body.bookingId, buyer.id);
      if (!found) throw notFound(paymentMessages.bookingNotFound);
      if (found.paymentStatus === 'paid') throw conflict(paymentMessages.alreadyPaid);
      const product = found.productId ? await findProductForSale(app.db, found.productId) : undefined;
      if (!product) throw conflict(paymentMessages.productGone);
      // Refused before the card is charged: the race after this point is settled by fulfilment.
      const refusal = paymentRefusal(found, product);
      if (refusal) throw conflict(product.state === 'sold' ? paymentMessages.productSold : refusal);
      // The booking's own price, fixed when it was made (decision 32), whatever the listing asks now.
      const amountCents = found.agreedPriceCents;
      if (amountCents < MINIMUM_CHARGE_CENTS) throw badRequest(paymentMessages.priceTooLow);
      const intent = await askProvider(request.log, () =>
        app.payments.createIntent({
          amountCents,
          currency: CURRENCY,
          metadata: { bookingId: found.id, productId: product.id, buyerId: buyer.id },
          idempotencyKey: intentKeyOf(found.id, amountCents),
          description: found.productName,
        }),
      );
      // Should the charge's record never arrive, the server asks the provider itself.
      await watchIntent(app.db, app.payments.name, intent.id);
      return { success: true as const, clientSecret: intent.clientSecret };
    },
  );

  app.get(
    '/dashboard/payment/:id',
    {
      config: { access: ['buy'] },
      schema: {
        tags: ['payments'],
        summary: "One of the caller's bookings, for the payment screen",
        params: idParams,
        response: { 200: dataOf(booking), ...errors },
      },
    },
    async (request) => {
      const found = await findBookingById(app.db, request.params.id);
      if (!found || found.buyerId !== currentUser(request).id) throw notFound(paymentMessages.bookingNotFound);
      return { success: true as const, data: found.booking };
    },
  );

  app.post(
    '/payment',
    {
      config: { access: ['buy'] },
      schema: {
        tags: ['payments'],
        summary: 'Record a card payment and complete the sale',
        description:
          'The status is read again from the payment provider; the sent status is not trusted. The server records a succeeded payment without this call too (the simulated confirm call, Stripe\'s webhook, and a check of every intent a few minutes after it is handed out); posting it, again or late, answers the same result. A payment for a product that was sold to someone else in the meantime is refunded and answered with 409.',
        body: paymentBody,
        response: { 200: successMessage, 402: errorResponse, ...errors },
      },
    },
    async (request) => {
      const buyer = currentUser(request);
      const { transactionId, productId, bookingId } = request.body;
      const found = bookingId
        ? await findBookingOfBuyer(app.db, bookingId, buyer.id)
        : await findBookingOfBuyerForProduct(app.db, buyer.id, productId);
      if (!found || (found.productId !== null && found.productId !== productId)) throw notFound(paymentMessages.bookingNotFound);

      const intent = await askProvider(request.log, () => app.payments.retrieveIntent(transactionId));
      if (!intent) throw badRequest(paymentMessages.unknownTransaction);
      if (intent.metadata.bookingId !== found.id) throw badRequest(paymentMessages.otherBooking);
      if (intent.status !== 'succeeded') throw new HttpError(402, paymentMessages.notSucceeded(intent.status));

      const result = await fulfilPayment({ db: app.db, payments: app.payments, log: request.log }, intent);
      if (result.outcome === 'sold') return { success: true, message: paymentMessages.recorded };
      if (result.outcome === 'refunded') throw conflict(paymentMessages.refunded[result.reason](result.payment.amountCents));
      throw conflict(paymentMessages.refundPending(result.payment.amountCents));
    },
  );

  app.post(
    '/payments/simulated/confirm',
    {
      config: { access: ['buy'] },
      schema: {
        tags: ['payments'],
        summary: 'Pay with a card through the simulated provider (what Stripe.js does with Stripe); a succeeded payment is recorded at once',
        description:
          "Accepts Stripe's test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 has insufficient funds. Card errors answer 402 with the message to show under the card field.",
        body: simulatedConfirmBody,
        response: {
          200: simulatedConfirmResponse,
          400: z.union([cardErrorResponse, errorResponse]),
          402: cardErrorResponse,
          409: cardErrorResponse,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const provider = app.payments;
      if (!(provider instanceof SimulatedPaymentProvider)) throw notFound(paymentMessages.simulatedInactive);
      const buyer = currentUser(request);
      const { clientSecret, card, billingDetails } = request.body;

      const intent = await provider.intentOfClientSecret(clientSecret);
      const metadata = intent && paymentMetadataOf(intent.metadata);
      if (!intent || !metadata || metadata.buyerId !== buyer.id) {
        return reply.status(400).send({ error: { message: simulatedPaymentMessages.unknownIntent, code: 'resource_missing' } });
      }
      // Where the provider is inside the product, a sold product is refused before the card is charged.
      if (intent.status !== 'succeeded') {
        const booking = await findBookingOfBuyer(app.db, metadata.bookingId, buyer.id);
        const product = await findProductForSale(app.db, metadata.productId);
        const refusal = booking ? paymentRefusal(booking, product) : paymentMessages.bookingNotFound;
        if (refusal) {
          const message = product?.state === 'sold' ? paymentMessages.productSold : refusal;
          return reply.status(409).send({ error: { message, code: 'product_sold' } });
        }
        // An intent made before the booking's price changed (an offer accepted since) is not charged.
        if (booking && booking.agreedPriceCents !== intent.amountCents) {
          return reply.status(409).send({ error: { message: paymentMessages.priceChanged(booking.agreedPriceCents), code: 'amount_mismatch' } });
        }
      }

      const result = await provider.confirm(clientSecret, card, billingDetails);
      if (!result.ok) {
        return reply.status(result.statusCode).send({
          error: { message: result.message, code: result.code, ...(result.declineCode ? { declineCode: result.declineCode } : {}) },
        });
      }
      // Recorded here, as Stripe's webhook does, whether or not the browser posts the payment next.
      const charged = await provider.retrieveIntent(result.intent.id);
      try {
        if (charged) await fulfilPayment({ db: app.db, payments: provider, log: request.log }, charged);
      } catch (error) {
        request.log.error({ err: error, transactionId: result.intent.id }, 'recording a confirmed payment failed; the intent check records it');
      }
      return { paymentIntent: result.intent };
    },
  );

  await app.register(stripeWebhookRoutes, { stripeAccountUpdated });
};
