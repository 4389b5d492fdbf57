import type { FastifyInstance } from 'fastify';
import { publishLiveEvent } from '../events/live-events.ts';
import { toOffer } from './conversation-repository.ts';
import { expireOffer, expireOfferTask } from './offer-expiry.ts';

/** The offer expiry job: an offer still open expires, and both participants are told. */
export function registerOfferExpiry(app: FastifyInstance) {
  app.jobs.handle(expireOfferTask, async ({ offerId }) => {
    await app.db.transaction(async (tx) => {
      const expired = await expireOffer(tx, offerId);
      if (!expired) return;
      const { thread, offer } = expired;
      await publishLiveEvent(tx, {
        to: [thread.buyerId, thread.sellerId],
        type: 'offer.changed',
        data: { conversationId: thread.id, offer: toOffer(offer, thread.productId) },
      });
    });
  });
}
