import { z } from 'zod';
import { CONTROL_CHARACTERS, idSchema, money, phone, requiredText } from './schemas.ts';

/**
 * Talking and haggling (decision 22): one conversation per product and buyer, between the buyer and
 * the product's seller, with its messages and the price offers made in it.
 */

export const MESSAGE_MAX_LENGTH = 2_000;
/** An offer nobody answered expires this many hours after it was made. */
export const OFFER_LIFETIME_HOURS = 48;
export const MESSAGES_PAGE_DEFAULT = 30;
export const MESSAGES_PAGE_MAX = 100;

export const offerStatuses = ['open', 'accepted', 'declined', 'countered', 'expired'] as const;
export type OfferStatus = (typeof offerStatuses)[number];

/** A message: plain text, line breaks kept, other control characters refused. */
export const messageText = z
  .string({ error: 'Please write a message.' })
  .refine((text) => !CONTROL_CHARACTERS.test(text), 'The message must not contain control characters.')
  .transform((text) => text.trim())
  .pipe(
    z
      .string()
      .min(1, 'Please write a message.')
      .max(MESSAGE_MAX_LENGTH, `A message can be at most ${MESSAGE_MAX_LENGTH.toLocaleString('en-US')} characters.`),
  );

export const startConversationBody = z.object({ productId: idSchema, text: messageText.optional() });
export type StartConversationBody = z.infer<typeof startConversationBody>;

export const sendMessageBody = z.object({ text: messageText });
export type SendMessageBody = z.infer<typeof sendMessageBody>;

/**
 * The buyer's phone number and meeting place for the booking an agreed offer makes, as a booking
 * asks for them; sent by the buyer with an offer, a counter-offer or the acceptance of the
 * seller's. Left out, the booking takes the phone of the buyer's settings and the listing's town.
 */
const meetingDetails = { phoneNumber: phone('phoneNumber').optional(), location: requiredText('location', 200).optional() };
export const offerAmountBody = z.object({ amount: money('amount'), ...meetingDetails });
export type OfferAmountBody = z.infer<typeof offerAmountBody>;
export type MeetingDetails = { phoneNumber?: string | undefined; location?: string | undefined };
/**
 * POST /api/offers/{id}/accept: the buyer accepting the seller's counter-offer may send their
 * meeting details; the body may be left out (the server reads a missing body as null).
 */
export const acceptOfferBody = z.object(meetingDetails).nullish();

export const messagesQuery = z.object({
  /** Keyset: messages older than this message of the thread. */
  before: idSchema.optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(MESSAGES_PAGE_MAX, `limit must be at most ${MESSAGES_PAGE_MAX}`)
    .optional(),
});

export const chatMessage = z.object({
  _id: z.string(),
  conversationId: z.string(),
  senderId: z.string(),
  /** What was written, or `trustTexts.messageRemovedByModeration` once an admin removed it. */
  text: z.string(),
  createdAt: z.string(),
  /** An admin removed it (decision 23): it cannot be reported again. */
  removed: z.boolean(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

export const offer = z.object({
  _id: z.string(),
  conversationId: z.string(),
  productId: z.string(),
  senderId: z.string(),
  amount: z.number(),
  status: z.enum(offerStatuses),
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type Offer = z.infer<typeof offer>;

export const conversation = z.object({
  _id: z.string(),
  productId: z.string(),
  productName: z.string(),
  productImage: z.string(),
  askingPrice: z.number(),
  /** Whether an offer can be made on the piece now: false once it is booked, sold or taken out of the market. */
  takesOffers: z.boolean(),
  /**
   * The caller's own booking of the piece while it waits for their payment (the seller accepted it,
   * as accepting an offer does): the thread's pay button opens its payment. Null for the seller.
   */
  payableBookingId: z.string().nullable(),
  buyerId: z.string(),
  buyerName: z.string(),
  sellerId: z.string(),
  sellerName: z.string(),
  lastMessageAt: z.string(),
  /** Messages from the other participant the caller has not read. */
  unread: z.number(),
  /** The other participant read everything up to this moment (read receipt); null before they read. */
  otherReadAt: z.string().nullable(),
  /** Offers made in the thread, newest first. */
  offers: z.array(offer),
});
export type Conversation = z.infer<typeof conversation>;

export const messagePage = z.object({
  success: z.literal(true),
  /** Newest first. */
  data: z.array(chatMessage),
  /** Pass as `before` for the older messages; null when there are none. */
  nextBefore: z.string().nullable(),
});
export type MessagePage = z.infer<typeof messagePage>;

/** Why a conversation or offer call was refused. */
export const conversationMessages = {
  conversationNotFound: 'No conversation with this id among yours.',
  productNotFound: 'No product with this id is on sale.',
  offerNotFound: 'No offer with this id among the offers you can answer.',
  offerAboveAsking: 'An offer must be below the asking price.',
  offerNotAvailable: 'This piece is not available, so no offer can be made or accepted.',
  offerAlreadyOpen: 'You already have an open offer for this piece. Wait for the answer first.',
  offerOnlyByBuyer: 'Only the buyer makes an offer. Answer theirs with a counter-offer.',
  offerNotOpen: {
    accepted: 'This offer was already accepted.',
    declined: 'This offer was already declined.',
    countered: 'This offer was already answered with a counter-offer.',
    expired: 'This offer has expired.',
  } satisfies Record<Exclude<OfferStatus, 'open'>, string>,
} as const;

