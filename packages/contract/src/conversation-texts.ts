/*
 * Apart from the schemas of conversations.ts, so that pages which only show these words do not download zod
 * (docs/decisions/0026).
 */
import type { OfferStatus } from './conversations.ts';

/** Words of the Messages screen and the product page's "Message seller". */
export const conversationTexts = {
  messageSeller: 'Message seller',
  messagesTitle: 'Messages',
  noConversations: 'No conversations yet. Message a seller from a product page.',
  chooseConversation: 'Choose a conversation.',
  unread: (count: number) => `${count} unread`,
  withBuyer: (name: string) => `with ${name} (buyer)`,
  withSeller: (name: string) => `with ${name} (seller)`,
  messageLabel: 'Your message',
  /** Under the message box. */
  enterSends: 'Enter sends; Shift+Enter starts a new line.',
  send: 'Send',
  olderMessages: 'Show older messages',
  you: 'You',
  seen: 'Seen',
  askingPrice: (price: string) => `Asking price ${price}`,
  offerLabel: 'Your offer in dollars',
  makeOffer: 'Make an offer',
  counterLabel: 'Your counter-offer in dollars',
  counter: 'Counter',
  accept: 'Accept',
  decline: 'Decline',
  offerBy: (who: string, amount: string) => `${who} offered ${amount}`,
  offerStatus: {
    open: 'Waiting for an answer',
    accepted: 'Accepted',
    declined: 'Declined',
    countered: 'Countered',
    expired: 'Expired',
  } satisfies Record<OfferStatus, string>,
  payAgreedPrice: 'Pay the agreed price',
  /** Above the buyer's phone and meeting place, asked with an offer or an acceptance. */
  meetingDetails: 'For the booking, if the price is agreed',
} as const;
