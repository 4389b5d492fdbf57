import { counted } from './counted.ts';
import { z } from 'zod';
import { idSchema } from './schemas.ts';

/**
 * Notifications (decision 22): what happened that concerns a person, kept as a list in the app,
 * pushed to open tabs as a live event, and sent by e-mail as the person's settings say.
 */

export const notificationKinds = [
  'message',
  'offer',
  'offer-answered',
  'booking-received',
  'booking-accepted',
  'booking-declined',
  'payment-received',
  'price-drop',
  'listing-expiring',
  'funds-released',
  'payout-paid',
  'payment-sent',
  'payment-refunded',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

export const notification = z.object({
  _id: z.string(),
  kind: z.enum(notificationKinds),
  text: z.string(),
  /** Where in the app it leads: a path. */
  link: z.string(),
  createdAt: z.string(),
  /** Null while unread. */
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notification>;

export const notificationList = z.object({
  success: z.literal(true),
  data: z.array(notification),
  unread: z.number(),
});
export type NotificationList = z.infer<typeof notificationList>;

/** Marks these notifications read, or every one when `ids` is absent. */
export const markNotificationsReadBody = z.object({ ids: z.array(idSchema).max(100, 'At most 100 ids at once.').optional() }).nullish();

export const notificationSettings = z.object({
  /** Whether any e-mail is sent at all. */
  email: z.boolean({ error: 'email must be true or false' }),
  /** One e-mail a day with what happened, instead of one per notification. */
  digest: z.boolean({ error: 'digest must be true or false' }),
});
export type NotificationSettings = z.infer<typeof notificationSettings>;

export const unsubscribeQuery = z.object({ token: z.string().min(1, 'token is required').max(200, 'token is too long') });

/** The words of notifications, their e-mails and the unsubscribe page. */
export const notificationTexts = {
  message: (senderName: string, productName: string) => `${senderName} sent you a message about ${productName}.`,
  offer: (senderName: string, amount: string, productName: string) => `${senderName} offered ${amount} for ${productName}.`,
  offerAnswered: {
    accepted: (amount: string, productName: string) => `Your offer of ${amount} for ${productName} was accepted.`,
    declined: (amount: string, productName: string) => `Your offer of ${amount} for ${productName} was declined.`,
    countered: (amount: string, productName: string) => `Your offer for ${productName} was answered with ${amount}.`,
  },
  offerClosed: (amount: string, productName: string) => `The offer of ${amount} for ${productName} is closed: the piece is no longer on offer.`,
  bookingReceived: (buyerName: string, productName: string) => `${buyerName} booked ${productName}.`,
  bookingAccepted: (productName: string) => `The seller accepted your booking of ${productName}. You can pay now.`,
  bookingDeclined: (productName: string) => `Your booking of ${productName} was declined.`,
  paymentReceived: (amount: string, productName: string) => `You received a payment of ${amount} for ${productName}.`,
  priceDrop: (productName: string, amount: string) => `${productName}, on your wish list, now costs ${amount}.`,
  fundsReleased: (amount: string, productName: string) => `${amount} from the sale of ${productName} is now available to pay out.`,
  payoutPaid: (amount: string) => `${amount} was paid out to you.`,
  paymentSent: (amount: string, productName: string, sellerName: string, transactionId: string) =>
    `Your payment of ${amount} to ${sellerName} for ${productName} is recorded (transaction ${transactionId}). Your receipt is in your e-mail.`,
  paymentRefunded: (amount: string, productName: string) => `Your payment of ${amount} for ${productName} was refunded to your card.`,
  listingExpiring: (productName: string) => `Your listing ${productName} expires in a few days. Renew it to keep it on sale.`,
  openInApp: 'Open in the app',
  digestSubject: (count: number) => counted(count, 'new notification'),
  digestIntro: 'Here is what happened since the last e-mail.',
  unsubscribed: 'You will receive no more e-mails from us. You can turn them back on in your notification settings.',
  unsubscribeInvalid: 'This unsubscribe link is not valid.',
} as const;

