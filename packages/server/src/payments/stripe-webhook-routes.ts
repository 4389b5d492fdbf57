import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, paymentMessages, serverMessages } from '@furniture/contract';
import { badRequest, HttpError, notFound } from '../http/errors.ts';
import { fulfilPayment } from './fulfilment.ts';
import { paymentMetadataOf, WebhookSignatureError, WebhooksNotSupportedError } from './payment-provider.ts';
import { isWebhookEventProcessed, markWebhookEventProcessed } from './payment-repository.ts';
import type { PaymentRouteOptions } from './payment-routes.ts';

const webhookReceipt = z.object({ received: z.literal(true), duplicate: z.boolean().optional() });

/**
 * Stripe's webhook. The signature covers the exact bytes Stripe sent, so this plugin, and only
 * this plugin, reads request bodies as raw buffers instead of parsing JSON.
 */
export const stripeWebhookRoutes: FastifyPluginAsyncZod<Pick<PaymentRouteOptions, 'stripeAccountUpdated'>> = async (app, { stripeAccountUpdated }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/payments/stripe/webhook',
    {
      config: { access: 'public' },
      schema: {
        tags: ['payments'],
        summary: "Stripe's events; payment_intent.succeeded completes the sale, account.updated records a seller's payout account",
        description:
          'Verified with the Stripe-Signature header over the raw body (signed with the webhook secret, or the Connect webhook secret for events of connected accounts), ' +
          'refusing events signed more than 300 seconds ago. An event delivered again is acknowledged without being handled twice.',
        response: { 200: webhookReceipt, 400: errorResponse, 404: errorResponse, 503: errorResponse },
      },
    },
    async (request) => {
      const rawBody = request.body;
      if (!Buffer.isBuffer(rawBody)) throw badRequest(serverMessages.payments.webhookBodyMissing);
      const signature = request.headers['stripe-signature'];
      let event;
      try {
        event = app.payments.parseWebhook(rawBody, typeof signature === 'string' ? signature : undefined);
      } catch (error) {
        if (error instanceof WebhooksNotSupportedError) throw notFound(paymentMessages.webhooksInactive);
        if (error instanceof WebhookSignatureError) {
          request.log.warn({ reason: error.message }, 'webhook refused: bad signature');
          throw badRequest(paymentMessages.badSignature);
        }
        throw error;
      }

      if (await isWebhookEventProcessed(app.db, event.id)) return { received: true as const, duplicate: true };

      const intent = event.intent;
      if (event.type === 'payment_intent.succeeded' && intent?.status === 'succeeded' && paymentMetadataOf(intent.metadata)) {
        const result = await fulfilPayment({ db: app.db, payments: app.payments, log: request.log }, intent);
        // Not acknowledged, so Stripe delivers the event again and the refund is retried.
        if (result.outcome === 'refund-pending') throw new HttpError(503, serverMessages.payments.refundPending);
      }
      if (event.type === 'account.updated' && event.accountId) {
        try {
          await stripeAccountUpdated(event.accountId);
        } catch (error) {
          // Not acknowledged, so Stripe delivers the event again.
          request.log.error({ err: error, accountId: event.accountId }, 'recording an updated payout account failed');
          throw new HttpError(503, serverMessages.payments.providerUnavailable);
        }
      }
      await markWebhookEventProcessed(app.db, event.id, app.payments.name);
      return { received: true as const };
    },
  );
};
