/*
 * Apart from the schemas of trust.ts, so that pages which only show these words do not download zod
 * (docs/decisions/0026).
 */
import type { ModerationAction } from './trust.ts';

/** Words of the trust and safety screens. */
export const trustWebTexts = {
  report: 'Report',
  reportTitle: (productName: string) => `Report ${productName}`,
  reportReason: 'What is wrong?',
  reportNote: 'Anything an admin should know (optional)',
  sendReport: 'Send report',
  cancel: 'Cancel',
  queueTitle: 'Reports',
  queueEmpty: 'No reports are waiting.',
  reportCount: (count: number) => (count === 1 ? '1 report' : `${count} reports`),
  owner: 'Owner',
  actionReason: 'Reason (the seller reads it)',
  actionLabels: { dismiss: 'Dismiss', hide: 'Hide', remove: 'Remove', suspend: 'Suspend seller', restore: 'Restore' } satisfies Record<ModerationAction, string>,
  auditTitle: 'Audit log',
  auditEmpty: 'No admin acts match.',
  auditColumns: { when: 'When', who: 'Who', action: 'Action', target: 'Target', reason: 'Reason', address: 'Address' },
  loadOlder: 'Older entries',
  hiddenBadge: 'Hidden by an admin',
  removedBadge: 'Removed by an admin',
  moderationReason: (reason: string) => `Why: ${reason}`,
  sellerProfileLink: 'See the seller’s profile',
  ratingSummary: (rating: number | null, count: number) =>
    rating === null ? 'No reviews yet' : `${rating.toFixed(1)} out of 5 from ${count === 1 ? '1 review' : `${count} reviews`}`,
  reviewsTitle: 'Reviews',
  listingsTitle: 'Available now',
  noListings: 'Nothing for sale right now.',
  memberSince: (date: string) => `Member since ${date}`,
  itemsSold: (count: number) => (count === 1 ? '1 item sold' : `${count} items sold`),
  reviewSeller: 'Review the seller',
  reviewTitle: (productName: string) => `How was buying ${productName}?`,
  reviewRating: 'Stars',
  starOption: (stars: number) => (stars === 1 ? '1 star' : `${stars} stars`),
  reviewText: 'A few words for other buyers',
  sendReview: 'Send review',
  showContact: 'Contact the seller',
  contactLine: (name: string, email: string, phone: string) => `${name}: ${email}, ${phone}`,
} as const;
