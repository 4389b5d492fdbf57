import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createdOf, dataOf, errorResponse, ledgerMessages, listOf, payout, payoutAccount, payoutAccountLink, serverMessages, type Payout } from '@furniture/contract';
import { currentUser } from '../http/access.ts';
import { conflict, HttpError } from '../http/errors.ts';
import { errorResponses } from '../http/responses.ts';
import { findUserById } from '../users/user-repository.ts';
import { listPayoutsOf, requestPayout, type PayoutRow } from './payouts.ts';

const payoutRules = 'Payouts: decisions 34 and 42.';

const toPayout = (row: PayoutRow): Payout => ({
  _id: row.id,
  amountCents: row.amountCents,
  status: row.status,
  provider: row.provider,
  reference: row.reference,
  createdAt: row.createdAt.toISOString(),
  paidAt: row.paidAt?.toISOString() ?? null,
});

/** A seller's payouts, on request, and where they go: the simulated payout provider or the seller's Stripe account. */
export const payoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = { db: app.db, provider: app.payouts, log: app.log };

  app.post(
    '/me/payouts',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['earnings'],
        summary: 'Pay out your available balance now (seller)',
        description:
          'The whole available balance, in one payout, through the payout provider (the simulated one unless Stripe is configured). ' +
          'Nothing available answers 409, and so does a Stripe account that is not set up or still needs details. ' +
          `Two requests at once make one payout; the other answers 409. ${payoutRules}`,
        response: { 201: createdOf(payout), ...errorResponses },
      },
    },
    async (request, reply) => {
      const made = await requestPayout(deps, currentUser(request).id);
      return reply.status(201).send({ success: true as const, message: ledgerMessages.payoutRequested, data: toPayout(made) });
    },
  );

  app.get(
    '/me/payouts',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['earnings'],
        summary: 'Your payouts, newest first (seller)',
        description: `The latest 100, each with its amount, status (pending, paid, failed) and the provider’s reference. ${payoutRules}`,
        response: { 200: listOf(payout), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, data: (await listPayoutsOf(app.db, currentUser(request).id)).map(toPayout) }),
  );

  app.get(
    '/me/payout-account',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['earnings'],
        summary: 'Where your payouts go, and whether they can be made (seller)',
        description:
          'The payout provider (simulated or stripe) and the status: not-set-up, details-needed or ready. With Stripe, an account not ready ' +
          `as last recorded is asked of Stripe again. With the simulated provider, always ready. ${payoutRules}`,
        response: { 200: dataOf(payoutAccount), ...errorResponses },
      },
    },
    async (request) => {
      const sellerId = currentUser(request).id;
      return { success: true as const, data: { _id: sellerId, provider: app.payouts.name, status: await app.payouts.accountStatusOf(sellerId) } };
    },
  );

  app.post(
    '/me/payout-account',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['earnings'],
        summary: 'Set up payouts: a link to Stripe’s onboarding (seller)',
        description:
          'With Stripe: creates your Stripe Express account the first time, and answers a single-use link to Stripe’s pages where you give ' +
          'your details; Stripe sends you back to the Earnings screen. With the simulated provider there is nothing to set up (409). ' +
          `Stripe not answering is a 502. ${payoutRules}`,
        response: { 200: dataOf(payoutAccountLink), ...errorResponses, 502: errorResponse },
      },
    },
    async (request) => {
      if (!app.payouts.onboardingLinkFor) throw conflict(ledgerMessages.nothingToSetUp);
      const seller = (await findUserById(app.db, currentUser(request).id))!;
      let link;
      try {
        link = await app.payouts.onboardingLinkFor({ id: seller.id, email: seller.email });
      } catch (error) {
        request.log.error({ err: error }, 'Stripe onboarding link failed');
        throw new HttpError(502, serverMessages.payments.providerUnavailable);
      }
      return { success: true as const, data: { _id: seller.id, provider: app.payouts.name, status: link.status, onboardingUrl: link.url } };
    },
  );
};
