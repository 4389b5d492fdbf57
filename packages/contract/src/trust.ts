import { z } from 'zod';
import { bigintText, idSchema, product } from './schemas.ts';
import { sellerProfile } from './search.ts';

/** What can be reported: a listing, an account, or a message of a conversation the reporter takes part in. */
export const reportTargetTypes = ['product', 'user', 'message'] as const;
export type ReportTargetType = (typeof reportTargetTypes)[number];

export const reportReasons = ['misdescribed', 'prohibited', 'scam', 'offensive', 'other'] as const;
export type ReportReason = (typeof reportReasons)[number];

/** open: waiting for an admin; dismissed: nothing wrong; actioned: an admin acted on it. */
export const reportStatuses = ['open', 'dismissed', 'actioned'] as const;
export type ReportStatus = (typeof reportStatuses)[number];

export const moderationActions = ['dismiss', 'hide', 'remove', 'suspend', 'restore'] as const;
export type ModerationAction = (typeof moderationActions)[number];

/** hidden: out of every public list until restored (the seller may appeal); removed: for good. */
export const moderationStates = ['hidden', 'removed'] as const;
export type ModerationState = (typeof moderationStates)[number];

/** Every kind of admin act the audit log records. */
export const auditActions = [
  'user.verify',
  'user.delete',
  'user.make-admin',
  'user.remove-admin',
  'user.unverify',
  'category.add',
  'report.dismiss',
  'report.hide',
  'report.remove',
  'report.suspend',
  'report.restore',
  'appeal.restore',
  'appeal.keep',
  'user.lift-suspension',
  'problem.release',
  'problem.refund',
  'report.read-message',
  'report.read-thread',
  /** An account deleted itself from Settings; its actor is the account (decision 44). */
  'account.delete',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** pending: waiting for an admin; granted: the listing was restored; refused: it stays hidden, for good. */
export const appealStatuses = ['pending', 'granted', 'refused'] as const;
export type AppealStatus = (typeof appealStatuses)[number];

/** An admin's answer to an appeal: the listing back, or kept hidden. */
export const appealAnswers = ['restore', 'keep'] as const;
export type AppealAnswer = (typeof appealAnswers)[number];

/** Which reports the moderation queue lists: those waiting, or those already handled. */
export const reportQueueStatuses = ['open', 'closed'] as const;
export type ReportQueueStatus = (typeof reportQueueStatuses)[number];

export const REPORT_NOTE_MAX_LENGTH = 1000;
export const APPEAL_TEXT_MAX_LENGTH = 1000;
export const MODERATION_REASON_MAX_LENGTH = 500;
export const AUDIT_PAGE_DEFAULT_LIMIT = 50;

export const trustTexts = {
  reportReasons: {
    misdescribed: 'Counterfeit or not as described',
    prohibited: 'Prohibited item',
    scam: 'Scam or payment outside the marketplace',
    offensive: 'Offensive',
    other: 'Something else',
  } satisfies Record<ReportReason, string>,
  reportReceived: 'Thank you. An admin will look at your report.',
  alreadyReported: 'You have already reported this, and an admin has not looked at it yet.',
  cannotReportOwn: 'You cannot report your own listing or account.',
  cannotReportOwnMessage: 'You cannot report your own message. Only the other person in the conversation can.',
  messageAlreadyRemoved: 'This message was already removed by moderation.',
  /** What both participants read in place of a message an admin removed. */
  messageRemovedByModeration: 'This message was removed by moderation.',
  notAMessageReport: 'Only a report of a message has a conversation to read.',
  reportTargetNotFound: 'There is nothing to report here: it does not exist.',
  reportNotFound: 'There is no open report with this id.',
  reportUnknown: 'There is no report with this id.',
  threadReadReason: (reportId: string) => `Moderating report ${reportId}`,
  reasonRequired: 'Say why, in a few words.',
  actionNotForUser: 'Only a listing can be hidden or removed.',
  actionNotForMessage: 'A message can be removed, and its author suspended; hiding and restoring are for listings.',
  cannotSuspendAdmin: 'Admin accounts cannot be suspended.',
  nothingToRestore: 'This listing is neither hidden nor removed.',
  notSuspended: 'This account is not suspended.',
  userNotFound: 'There is no account with this id.',
  suspensionLifted: 'Suspension lifted',
  accountSuspended: 'This account is suspended. Write to the marketplace to ask why.',
  accountSuspendedTitle: 'Your account is suspended',
  accountSuspendedBody: (reason: string) =>
    `An admin suspended your account: you cannot sign in, your listings are out of the marketplace, and your bookings still in play are cancelled. The reason: ${reason}`,
  accountSuspendedAppeal: 'If you think this is a mistake, write to the marketplace.',
  accountRestoredTitle: 'Your account is open again',
  accountRestoredBody: (reason: string) =>
    `An admin lifted the suspension of your account: you can sign in again, and the listings it hid are back in the marketplace. The reason: ${reason}`,
  moderationDone: {
    dismiss: 'Report dismissed',
    hide: 'Listing hidden',
    remove: 'Listing removed',
    suspend: 'Account suspended',
    restore: 'Listing restored',
  } satisfies Record<ModerationAction, string>,
  messageRemoved: 'Message removed',
  listingHiddenTitle: (productName: string) => `Your listing ${productName} was hidden`,
  listingRemovedTitle: (productName: string) => `Your listing ${productName} was removed`,
  listingModeratedBody: (reason: string) => `An admin took it out of the marketplace. The reason: ${reason}`,
  openMyProducts: 'Open my products',
  listingRestoredTitle: (productName: string) => `Your listing ${productName} is back`,
  listingRestoredBody: (reason: string) => `An admin put it back in the marketplace. The reason: ${reason}`,
  appealKeptTitle: (productName: string) => `Your listing ${productName} stays hidden`,
  appealKeptBody: (reason: string) => `An admin read your appeal and keeps the listing hidden. The reason: ${reason}. This answer is final.`,
  appealSent: 'Your appeal is sent. An admin will answer it.',
  listingNotFound: 'There is no listing with this id.',
  appealNotYours: 'Only the seller of this listing can appeal its hiding.',
  appealNotHidden: 'Only a listing hidden by an admin can be appealed.',
  appealAlreadySent: 'You have already appealed this hiding. A listing can be appealed once.',
  appealTextRequired: 'Say in a few words why the listing should come back.',
  appealNotFound: 'There is no appeal with this id.',
  appealAlreadyAnswered: 'This appeal has already been answered.',
  appealAnswered: { restore: 'Listing restored', keep: 'Listing kept hidden' } satisfies Record<AppealAnswer, string>,
} as const;

const reasonText = (max: number) =>
  z.string().trim().min(1, trustTexts.reasonRequired).max(max, `At most ${max} characters`);

export const createReportBody = z.object({
  targetType: z.enum(reportTargetTypes),
  targetId: idSchema,
  reason: z.enum(reportReasons),
  note: z.string().trim().max(REPORT_NOTE_MAX_LENGTH, `At most ${REPORT_NOTE_MAX_LENGTH} characters`).optional(),
});
export type CreateReportBody = z.infer<typeof createReportBody>;

export const moderationActionBody = z.object({
  action: z.enum(moderationActions),
  reason: reasonText(MODERATION_REASON_MAX_LENGTH),
});
export type ModerationActionBody = z.infer<typeof moderationActionBody>;

export const appealBody = z.object({
  text: z.string().trim().min(1, trustTexts.appealTextRequired).max(APPEAL_TEXT_MAX_LENGTH, `At most ${APPEAL_TEXT_MAX_LENGTH} characters`),
});
export type AppealBody = z.infer<typeof appealBody>;

export const appealAnswerBody = z.object({
  answer: z.enum(appealAnswers),
  reason: reasonText(MODERATION_REASON_MAX_LENGTH),
});
export type AppealAnswerBody = z.infer<typeof appealAnswerBody>;

/** Lifting a suspension: the admin's reason. */
export const liftSuspensionBody = z.object({ reason: reasonText(MODERATION_REASON_MAX_LENGTH) });
export type LiftSuspensionBody = z.infer<typeof liftSuspensionBody>;

export const reportQueueQuery = z.object({ status: z.enum(reportQueueStatuses).default('open') });
export type ReportQueueQuery = z.infer<typeof reportQueueQuery>;

/** A seller's appeal of a hidden listing, and the admin's answer. */
export const listingAppeal = z.object({
  _id: idSchema,
  /** The same as `_id`, kept for one release for clients written before objects carried `_id`. */
  id: idSchema.meta({ deprecated: true }),
  productId: idSchema,
  text: z.string(),
  status: z.enum(appealStatuses),
  /** The admin's reason, once answered. */
  answer: z.string().nullable(),
  createdAt: z.string(),
  answeredAt: z.string().nullable(),
});
export type ListingAppeal = z.infer<typeof listingAppeal>;

export const report = z.object({
  _id: idSchema,
  /** The same as `_id`, kept for one release for clients written before objects carried `_id`. */
  id: idSchema.meta({ deprecated: true }),
  reporterId: idSchema.nullable(),
  targetType: z.enum(reportTargetTypes),
  targetId: idSchema,
  reason: z.enum(reportReasons),
  note: z.string().nullable(),
  status: z.enum(reportStatuses),
  createdAt: z.string(),
});
export type Report = z.infer<typeof report>;

/** An admin act on a target, from the audit log. */
export const moderationHistoryEntry = z.object({
  action: z.string(),
  reason: z.string().nullable(),
  actorEmail: z.string(),
  createdAt: z.string(),
});
export type ModerationHistoryEntry = z.infer<typeof moderationHistoryEntry>;

/** How many messages before and after a reported one an admin reads in its thread excerpt. */
export const REPORT_CONTEXT_MESSAGES = 10;

/** A message as an admin reads it in the moderation queue: what was written, even once removed. */
export const moderatedMessage = z.object({
  _id: idSchema,
  senderId: idSchema,
  senderName: z.string(),
  text: z.string(),
  createdAt: z.string(),
  /** When an admin removed it; the participants then read `trustTexts.messageRemovedByModeration`. */
  removedAt: z.string().nullable(),
});
export type ModeratedMessage = z.infer<typeof moderatedMessage>;

/** A reported message, its author and the thread's product: what the queue shows of a message target. */
export const reportedMessage = moderatedMessage.extend({
  conversationId: idSchema,
  productId: idSchema,
  productName: z.string(),
});
export type ReportedMessage = z.infer<typeof reportedMessage>;

/** `GET /api/admin/reports/{id}/context`: the reported message amid its thread, oldest first. */
export const reportContext = z.object({
  reportId: idSchema,
  conversationId: idSchema,
  productId: idSchema,
  productName: z.string(),
  buyerName: z.string(),
  sellerName: z.string(),
  reportedMessageId: idSchema,
  /** Up to REPORT_CONTEXT_MESSAGES before the reported message, it, and up to as many after. */
  messages: z.array(moderatedMessage),
});
export type ReportContext = z.infer<typeof reportContext>;

/** Reports of one target, with what an admin needs to judge it. */
export const reportedTarget = z.object({
  targetType: z.enum(reportTargetTypes),
  targetId: idSchema,
  /** The listing's name, the account's name, or the name of the product a reported message's thread is about. */
  title: z.string(),
  /** The seller of a listing, the account itself, or a message's author. */
  ownerId: idSchema.nullable(),
  ownerEmail: z.string().nullable(),
  moderation: z.enum(moderationStates).nullable(),
  suspended: z.boolean(),
  /** For a report of a message: the message, its author and its thread's product; null otherwise. */
  message: reportedMessage.nullable(),
  /** How many of its reports are in the listed status (open, or closed). */
  reportCount: z.number().int(),
  /** Its reports in the listed status, oldest first. */
  reports: z.array(report),
  /** The latest appeal of a listing, if its seller appealed; a pending one brings the target to the top. */
  appeal: listingAppeal.nullable(),
  history: z.object({
    /** Its other reports (closed ones, when the open ones are listed), newest first. */
    reports: z.array(report),
    /** What admins did about it, newest first. */
    actions: z.array(moderationHistoryEntry),
  }),
});
export type ReportedTarget = z.infer<typeof reportedTarget>;

export const auditEntry = z.object({
  _id: z.string(),
  /** The same as `_id`, kept for one release for clients written before objects carried `_id`. */
  id: z.string().meta({ deprecated: true }),
  actorId: idSchema,
  actorEmail: z.string(),
  action: z.enum(auditActions),
  targetType: z.string(),
  targetId: z.string(),
  targetLabel: z.string().nullable(),
  reason: z.string().nullable(),
  address: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditQuery = z.object({
  actor: idSchema.optional(),
  action: z.enum(auditActions).optional(),
  since: z.iso.datetime({ offset: true, error: 'Give a date and time such as 2026-01-31T00:00:00Z' }).optional(),
  /** The `nextCursor` of the page before. */
  cursor: bigintText('This is not a cursor this list gave').optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditPage = z.object({
  success: z.literal(true),
  data: z.array(auditEntry),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPage>;

export const REVIEW_TEXT_MAX_LENGTH = 500;
/** A review can be changed for this long after it is written; then it is final. */
export const REVIEW_EDIT_DAYS = 14;
/** Reviews a seller's public profile shows, newest first. */
export const PROFILE_REVIEWS_LIMIT = 20;
/** Available listings a seller's public profile shows, newest first. */
export const PROFILE_LISTINGS_LIMIT = 24;

export const reviewTexts = {
  notClosed: 'You can review only a sale that was paid and handed over.',
  bookingNotFound: 'There is no sale of yours with this id.',
  alreadyReviewed: 'You have already reviewed this sale. You can change your review for 14 days.',
  reviewNotFound: 'There is no review of yours with this id.',
  reviewFinal: 'This review is final: reviews can be changed for 14 days after they are written.',
  saved: 'Thank you for your review.',
  updated: 'Your review is updated.',
  sellerNotFound: 'There is no seller with this id.',
  ratingRange: 'Choose from 1 to 5 stars',
} as const;

const reviewRating = z.number({ error: reviewTexts.ratingRange }).int(reviewTexts.ratingRange).min(1, reviewTexts.ratingRange).max(5, reviewTexts.ratingRange);
const reviewText = z.string().trim().max(REVIEW_TEXT_MAX_LENGTH, `At most ${REVIEW_TEXT_MAX_LENGTH} characters`);

export const createReviewBody = z.object({ bookingId: idSchema, rating: reviewRating, text: reviewText });
export type CreateReviewBody = z.infer<typeof createReviewBody>;
export const editReviewBody = z.object({ rating: reviewRating, text: reviewText });
export type EditReviewBody = z.infer<typeof editReviewBody>;

export const review = z.object({
  _id: idSchema,
  /** The same as `_id`, kept for one release for clients written before objects carried `_id`. */
  id: idSchema.meta({ deprecated: true }),
  bookingId: idSchema,
  authorId: idSchema,
  authorName: z.string(),
  /** Whom the review is about. */
  subjectId: idSchema,
  /** What the author was in the sale: the buyer rating the seller, or the seller rating the buyer. */
  authorRole: z.enum(['buyer', 'seller']),
  rating: z.number().int(),
  text: z.string(),
  createdAt: z.string(),
  /** Until when the author can still change it. */
  editableUntil: z.string(),
});
export type Review = z.infer<typeof review>;

/** `GET /api/sellers/{id}`: the seller's summary, their newest reviews and their listings available now. */
export const sellerPage = sellerProfile.extend({
  /** The newest reviews, at most PROFILE_REVIEWS_LIMIT. */
  reviews: z.array(review),
  /** Listings available now, newest first, at most PROFILE_LISTINGS_LIMIT. */
  listings: z.array(product),
});
export type SellerPage = z.infer<typeof sellerPage>;

export const contactTexts = {
  notAllowed: 'Only people who booked this piece see how to reach its seller.',
  productNotFound: 'No product with this id',
  heading: 'Contact the seller',
} as const;

/** `GET /api/products/{id}/contact`: how to reach a product's seller, for the seller, admins and its buyers. */
export const sellerContact = z.object({ sellerName: z.string(), sellerEmail: z.string(), phone: z.string() });
export type SellerContact = z.infer<typeof sellerContact>;

