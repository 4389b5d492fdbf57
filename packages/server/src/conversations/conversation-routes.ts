import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptOfferBody, chatMessage, conversation, conversationMessages, dataOf, idParams, listOf, messagePage, MESSAGES_PAGE_DEFAULT, messagesQuery, notificationTexts, type Offer, offer, offerAmountBody, type OfferAmountBody, paginationQuery, saleMessages, sendMessageBody, serverMessages, startConversationBody } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { publishLiveEvent } from '../events/live-events.ts';
import { currentUser } from '../http/access.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { pageOf, pageRows, paginationDescription } from '../http/pagination.ts';
import { enforceLimit, RATE_LIMITS } from '../http/rate-limit.ts';
import { errorResponses } from '../http/responses.ts';
import { notify, usd } from '../notifications/notify.ts';
import type { UserRow } from '../users/user-repository.ts';
import {
  findBookingOfSeller,
  findConversationOf,
  findProductForConversation,
  insertMessage,
  listConversationsOf,
  listMessages,
  markRead,
  openConversation,
  otherParticipant,
  pieceOf,
  threadLink,
  type ConversationRow,
} from './conversation-repository.ts';
import { answerOffer, type BookAtAgreedPrice, makeOffer, type OfferAnswer } from './offers.ts';

const privacy = 'Only the thread’s buyer and the product’s seller can see or use it; anyone else, admins included, is answered 404.';

/** Sends a message in a thread, and tells the other participant in the same transaction. */
async function sendMessage(tx: Executor, thread: ConversationRow, sender: UserRow, text: string) {
  const message = await insertMessage(tx, thread.id, sender.id, text);
  const to = otherParticipant(thread, sender.id);
  await publishLiveEvent(tx, { to, type: 'message.created', data: { conversationId: thread.id, message } });
  const piece = await pieceOf(tx, thread);
  await notify(tx, {
    to,
    kind: 'message',
    text: notificationTexts.message(sender.name, piece.productName),
    link: threadLink(thread),
    image: piece.productImage,
  });
  return message;
}

/** Tells the other side of an offer's change: a new offer (or counter-offer), or the answer to theirs. */
async function notifyOffer(tx: Executor, thread: ConversationRow, actor: UserRow, change: { offer: Offer; counter?: Offer }) {
  const piece = await pieceOf(tx, thread);
  const to = otherParticipant(thread, actor.id);
  const base = { to, link: threadLink(thread), image: piece.productImage };
  const { offer: answered, counter } = change;
  if (answered.status === 'open') {
    await notify(tx, { ...base, kind: 'offer', text: notificationTexts.offer(actor.name, usd(answered.amount), piece.productName) });
  } else if (answered.status === 'countered' && counter) {
    await notify(tx, { ...base, kind: 'offer-answered', text: notificationTexts.offerAnswered.countered(usd(counter.amount), piece.productName) });
  } else if (answered.status === 'accepted' || answered.status === 'declined') {
    await notify(tx, { ...base, kind: 'offer-answered', text: notificationTexts.offerAnswered[answered.status](usd(answered.amount), piece.productName) });
  }
}

/**
 * Conversations between a buyer and a product's seller, their messages, read receipts and price
 * offers (decision 22). Every change publishes a live event to the other participant in its
 * transaction (decision 17).
 */
export const conversationRoutes: FastifyPluginAsyncZod<{ bookAtAgreedPrice: BookAtAgreedPrice }> = async (app, { bookAtAgreedPrice }) => {
  const requireThread = async (id: string, userId: string) => {
    const thread = await findConversationOf(app.db, id, userId);
    if (!thread) throw notFound(conversationMessages.conversationNotFound);
    return thread;
  };

  app.post(
    '/conversations',
    {
      config: { access: ['buy'] },
      schema: {
        tags: ['conversations'],
        summary: 'Message the seller of a product (buyer): answers the thread, made when there is none yet',
        description: `One thread per product and buyer: asking again answers the same thread (200 instead of 201). An optional first text is sent as a message. ${privacy}`,
        body: startConversationBody,
        response: { 200: dataOf(z.object({ _id: z.string() })), 201: dataOf(z.object({ _id: z.string() })), ...errorResponses },
      },
    },
    async (request, reply) => {
      const buyer = currentUser(request);
      const { productId, text } = request.body;
      if (text !== undefined) await enforceLimit(app.db, { limit: RATE_LIMITS.messagesPerAccount, subject: buyer.id });
      const { thread, created } = await app.db.transaction(async (tx) => {
        const product = await findProductForConversation(tx, productId);
        if (!product) throw notFound(conversationMessages.productNotFound);
        if (product.sellerId === buyer.id) throw forbidden(serverMessages.products.notYours('ask about'));
        const opened = await openConversation(tx, { productId, buyerId: buyer.id, sellerId: product.sellerId });
        // Only new threads count, in their transaction: asking again about a piece costs nothing.
        if (opened.created) await enforceLimit(tx, { limit: RATE_LIMITS.conversationsPerAccount, subject: buyer.id });
        if (text !== undefined) await sendMessage(tx, opened.thread, buyer, text);
        return opened;
      });
      return reply.status(created ? 201 : 200).send({ success: true as const, data: { _id: thread.id } });
    },
  );

  app.post(
    '/bookings/:id/conversation',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['conversations'],
        summary: 'Message the buyer of a booking (seller): answers the thread about the booked product, made when there is none yet',
        description: `The booking must be of one of the seller's products; anyone else's answers 404. One thread per product and buyer, as when the buyer starts it (200 for an existing thread, 201 for a new one). ${privacy}`,
        params: idParams,
        response: { 200: dataOf(z.object({ _id: z.string() })), 201: dataOf(z.object({ _id: z.string() })), ...errorResponses },
      },
    },
    async (request, reply) => {
      const seller = currentUser(request);
      const { thread, created } = await app.db.transaction(async (tx) => {
        const booking = await findBookingOfSeller(tx, request.params.id, seller.id);
        if (!booking) throw notFound(saleMessages.bookingNotFound);
        const opened = await openConversation(tx, { productId: booking.productId, buyerId: booking.buyerId, sellerId: seller.id });
        if (opened.created) await enforceLimit(tx, { limit: RATE_LIMITS.conversationsPerAccount, subject: seller.id });
        return opened;
      });
      return reply.status(created ? 201 : 200).send({ success: true as const, data: { _id: thread.id } });
    },
  );

  app.get(
    '/conversations',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['conversations'],
        summary: 'The caller’s conversations, newest activity first, with unread counts and offers',
        description: `As buyer or as seller. ${paginationDescription}`,
        querystring: paginationQuery,
        response: { 200: listOf(conversation), ...errorResponses },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const rows = await listConversationsOf(app.db, currentUser(request).id, page.probe.limit, page.probe.offset);
      return { success: true as const, data: pageRows(request, reply, rows, page) };
    },
  );

  app.get(
    '/conversations/:id/messages',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['conversations'],
        summary: 'A page of a thread’s messages, newest first',
        description: `Keyset pages: pass the answer’s nextBefore as \`before\` for older messages; \`limit\` defaults to ${MESSAGES_PAGE_DEFAULT}. ${privacy}`,
        params: idParams,
        querystring: messagesQuery,
        response: { 200: messagePage, ...errorResponses },
      },
    },
    async (request) => {
      const thread = await requireThread(request.params.id, currentUser(request).id);
      const page = await listMessages(app.db, thread.id, request.query.before, request.query.limit ?? MESSAGES_PAGE_DEFAULT);
      if (!page) throw notFound(serverMessages.conversations.noEarlierMessage);
      return { success: true as const, ...page };
    },
  );

  app.post(
    '/conversations/:id/messages',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['conversations'],
        summary: 'Send a message in a thread',
        description: `Plain text up to 2,000 characters; line breaks are kept, other control characters refused. At most ${RATE_LIMITS.messagesPerAccount.max} messages a minute per account (429). ${privacy}`,
        params: idParams,
        body: sendMessageBody,
        response: { 201: dataOf(chatMessage), ...errorResponses },
      },
    },
    async (request, reply) => {
      const sender = currentUser(request);
      const thread = await requireThread(request.params.id, sender.id);
      await enforceLimit(app.db, { limit: RATE_LIMITS.messagesPerAccount, subject: sender.id });
      const message = await app.db.transaction((tx) => sendMessage(tx, thread, sender, request.body.text));
      return reply.status(201).send({ success: true as const, data: message });
    },
  );

  app.post(
    '/conversations/:id/read',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['conversations'],
        summary: 'Mark a thread read up to now (read receipt)',
        description: `The other participant sees it as the thread’s otherReadAt, and is told at once. ${privacy}`,
        params: idParams,
        response: { 200: dataOf(z.object({ readAt: z.string() })), ...errorResponses },
      },
    },
    async (request) => {
      const reader = currentUser(request);
      const thread = await requireThread(request.params.id, reader.id);
      const readAt = await app.db.transaction(async (tx) => {
        const at = await markRead(tx, thread, reader.id);
        await publishLiveEvent(tx, {
          to: otherParticipant(thread, reader.id),
          type: 'conversation.read',
          data: { conversationId: thread.id, readAt: at.toISOString() },
        });
        return at;
      });
      return { success: true as const, data: { readAt: readAt.toISOString() } };
    },
  );

  app.post(
    '/conversations/:id/offers',
    {
      config: { access: ['buy'] },
      schema: {
        tags: ['conversations'],
        summary: 'Offer a price below the asking price (the thread’s buyer)',
        description: `The offer is open for 48 hours, then expires. One open offer per thread (409). phoneNumber and location (the meeting place) go to the booking the offer makes if accepted; left out, it takes the phone of the buyer’s settings and the listing’s town. At most ${RATE_LIMITS.offersPerAccount.max} offers a minute per account. ${privacy}`,
        params: idParams,
        body: offerAmountBody,
        response: { 201: dataOf(offer), ...errorResponses },
      },
    },
    async (request, reply) => {
      const buyer = currentUser(request);
      const thread = await requireThread(request.params.id, buyer.id);
      // The seller, who may buy elsewhere, answers offers here rather than making them.
      if (thread.buyerId !== buyer.id) throw forbidden(conversationMessages.offerOnlyByBuyer);
      await enforceLimit(app.db, { limit: RATE_LIMITS.offersPerAccount, subject: buyer.id });
      const made = await app.db.transaction(async (tx) => {
        const { amount, ...details } = request.body;
        const created = await makeOffer(tx, thread, buyer.id, amount, details);
        await publishLiveEvent(tx, { to: thread.sellerId, type: 'offer.changed', data: { conversationId: thread.id, offer: created } });
        await notifyOffer(tx, thread, buyer, { offer: created });
        return created;
      });
      return reply.status(201).send({ success: true as const, data: made });
    },
  );

  const answers: Record<OfferAnswer, string> = {
    accept:
      'Accept an open offer made by the other side: the buyer’s booking is made at the agreed price and the piece reserved; the payment is then that price. ' +
      'The buyer accepting may send `phoneNumber` and `location` for the booking',
    decline: 'Decline an open offer made by the other side',
    counter: 'Answer an open offer with another price below the asking price: it becomes a new open offer',
  };
  for (const [answer, summary] of Object.entries(answers) as Array<[OfferAnswer, string]>) {
    app.post(
      `/offers/:id/${answer}`,
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['conversations'],
          summary,
          description:
            'Only the participant who did not make the offer can answer it (404 for anyone else). An offer already answered or expired answers 409 saying so; of two answers at once, one wins.',
          params: idParams,
          ...(answer === 'counter' ? { body: offerAmountBody } : answer === 'accept' ? { body: acceptOfferBody } : {}),
          response: { 200: dataOf(z.object({ offer, counter: offer.optional(), bookingId: z.string().optional() })), ...errorResponses },
        },
      },
      async (request) => {
        const caller = currentUser(request);
        if (answer === 'counter') await enforceLimit(app.db, { limit: RATE_LIMITS.offersPerAccount, subject: caller.id });
        const { amount, ...details } = (request.body ?? {}) as Partial<OfferAmountBody>;
        const answered = await app.db.transaction(async (tx) => {
          const result = await answerOffer(
            tx,
            { offerId: request.params.id, callerId: caller.id, answer, details, fee: app.config.fee, ...(amount ? { amount } : {}) },
            bookAtAgreedPrice,
          );
          const { thread, ...data } = result;
          await publishLiveEvent(tx, { to: otherParticipant(thread, caller.id), type: 'offer.changed', data: { conversationId: thread.id, ...data } });
          await notifyOffer(tx, thread, caller, data);
          return data;
        });
        return { success: true as const, data: answered };
      },
    );
  }
};
