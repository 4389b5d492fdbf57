import { z } from 'zod';
import { fundsStates } from './enums.ts';
import type { bookingProtection } from './schemas.ts';
import { bigintText } from './schemas.ts';

/**
 * Where the money of a sale goes (decisions 33 and 34): the ledger's accounts and movements, buyer
 * protection, the seller's earnings and payouts, and the admin's finance overview.
 */

/**
 * buyer-payments: money that came in from buyers' cards (goes negative as it comes in);
 * held: a sale's money until it is released, one per seller (what the seller will receive) and
 * one of the platform (the fees of those sales); available: a seller's money, ready to pay out;
 * platform-fees: fees earned; payouts: money paid out to a seller; refunds: money given back to buyers.
 */
export const ledgerAccountKinds = ['buyer-payments', 'held', 'available', 'platform-fees', 'payouts', 'refunds'] as const;
export type LedgerAccountKind = (typeof ledgerAccountKinds)[number];

/** charge: a paid sale's money held; release: to the seller's available balance and the platform's fees; refund; payout; reversal: a failed payout back. */
export const ledgerTransactionKinds = ['charge', 'release', 'refund', 'payout', 'reversal'] as const;
export type LedgerTransactionKind = (typeof ledgerTransactionKinds)[number];


export const problemReasons = ['not-received', 'not-as-described', 'damaged', 'other'] as const;
export type ProblemReason = (typeof problemReasons)[number];
export const PROBLEM_NOTE_MAX_LENGTH = 1000;

/** pending: asked of the payout provider; paid: the provider paid it; failed: it did not, and the money is back in the balance. */
export const payoutStatuses = ['pending', 'paid', 'failed'] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];

export const reportProblemBody = z.object({
  reason: z.enum(problemReasons, { error: 'Please choose what is wrong.' }),
  note: z
    .string({ error: 'Please describe the problem in a few words.' })
    .trim()
    .min(1, 'Please describe the problem in a few words.')
    .max(PROBLEM_NOTE_MAX_LENGTH, `The description must be at most ${PROBLEM_NOTE_MAX_LENGTH} characters.`),
});
export type ReportProblemBody = z.infer<typeof reportProblemBody>;

/** One line of a seller's earnings: a movement of their money, with its sale. */
export const earningsEntry = z.object({
  _id: z.string(),
  kind: z.enum(ledgerTransactionKinds),
  /** Which of the seller's balances moved: held (pending) for a charge or a refund before the release, available for every other movement. */
  account: z.enum(['held', 'available']),
  amountCents: z.number().int(),
  bookingId: z.string().nullable(),
  productName: z.string().nullable(),
  payoutId: z.string().nullable(),
  createdAt: z.string(),
});
export type EarningsEntry = z.infer<typeof earningsEntry>;

type ProtectedBooking = z.infer<typeof bookingProtection> & { status: string };

/** The buyer may say "I received it": the money is still held (or, paid before buyer protection, not yet handed over). */
export function canConfirmReceipt(booking: ProtectedBooking): boolean {
  return booking.fundsState ? booking.fundsState === 'held' : booking.status === 'paid';
}

/** The seller may mark a paid sale handed over, unless a reported problem froze its money. */
export function canHandOver(booking: ProtectedBooking): boolean {
  return booking.status === 'paid' && booking.fundsState !== 'frozen';
}

/** The buyer may say "Something is wrong": a paid sale's money not refunded, and no report open. */
export function canReportProblem(booking: ProtectedBooking): boolean {
  return (booking.fundsState === 'held' || booking.fundsState === 'released') && !booking.problemOpen;
}

/** A sale whose money is held for the seller, and when it is released. */
export const heldSale = z.object({
  _id: z.string(),
  productName: z.string(),
  amountCents: z.number().int(),
  fundsState: z.enum(fundsStates),
  /** When the money is released if nobody reports a problem; null until the piece is handed over. */
  releaseAt: z.string().nullable(),
});

export const earnings = z.object({
  currency: z.literal('USD'),
  pendingCents: z.number().int(),
  availableCents: z.number().int(),
  paidOutCents: z.number().int(),
  held: z.array(heldSale),
  /** What the seller received by week (Monday, UTC), the last 12 weeks, oldest first. */
  weeks: z.array(z.object({ week: z.string(), cents: z.number().int() })),
  entries: z.array(earningsEntry),
  nextCursor: z.string().nullable(),
});
export type Earnings = z.infer<typeof earnings>;

export const earningsQuery = z.object({
  cursor: bigintText('The cursor must be the nextCursor of a previous page.').optional(),
});

export const statementQuery = z.object({
  month: z.string({ error: 'Please give the month as YYYY-MM.' }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Please give the month as YYYY-MM.'),
});

export const payout = z.object({
  _id: z.string(),
  amountCents: z.number().int(),
  status: z.enum(payoutStatuses),
  provider: z.string(),
  reference: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type Payout = z.infer<typeof payout>;

/** Who pays sellers out: the simulated payout provider of the product, or Stripe Connect (decision 42). */
export const payoutProviderNames = ['simulated', 'stripe'] as const;
/** A seller's Stripe account: none yet, created but Stripe still needs details, or ready to receive payouts. */
export const payoutAccountStatuses = ['not-set-up', 'details-needed', 'ready'] as const;
export type PayoutAccountStatus = (typeof payoutAccountStatuses)[number];

/** Where a seller's payouts go, and whether they can be made. With the simulated provider, always ready. */
export const payoutAccount = z.object({
  _id: z.string(),
  provider: z.enum(payoutProviderNames),
  status: z.enum(payoutAccountStatuses),
});
export type PayoutAccount = z.infer<typeof payoutAccount>;

/** The account and a single-use link to Stripe's onboarding, where the seller gives their details. */
export const payoutAccountLink = payoutAccount.extend({ onboardingUrl: z.url() });
export type PayoutAccountLink = z.infer<typeof payoutAccountLink>;

/** A buyer's report of a problem with a sale, as the admin's queue shows it. */
export const saleProblem = z.object({
  _id: z.string(),
  bookingId: z.string(),
  productName: z.string(),
  buyerName: z.string(),
  sellerName: z.string(),
  amountCents: z.number().int(),
  reason: z.enum(problemReasons),
  note: z.string(),
  fundsState: z.enum(fundsStates),
  openedAt: z.string(),
});
export type SaleProblem = z.infer<typeof saleProblem>;

export const financeOverview = z.object({
  _id: z.literal('finance'),
  currency: z.literal('USD'),
  heldCents: z.number().int(),
  feesCents: z.number().int(),
  paidOutCents: z.number().int(),
  payoutsPaid: z.number().int(),
  payoutsFailed: z.number().int(),
  refundedCents: z.number().int(),
  openProblems: z.array(saleProblem),
  /** The sum of every entry of the ledger: always 0 when the books balance. */
  ledgerSumCents: z.number().int(),
  balanced: z.boolean(),
});
export type FinanceOverview = z.infer<typeof financeOverview>;

/** PLATFORM_FEE_PERCENT (in steps of 0.01) and PLATFORM_FEE_FIXED_CENTS. */
export interface PlatformFee {
  percent: number;
  fixedCents: number;
}

/**
 * The platform's fee on a sale of `priceCents`: a percentage, rounded half up to the cent, plus a
 * fixed amount, never more than the price. The browser's preview ("You receive $X") of the fee the
 * server fixes on a booking (`platformFeeSql` in the server's ledger; a test holds them equal),
 * counted in whole hundredths of a percent so that no fraction of a cent is lost to floating point.
 */
export function platformFeeCents(priceCents: number, fee: PlatformFee): number {
  const hundredths = Math.round(fee.percent * 100);
  return Math.min(priceCents, Math.round((priceCents * hundredths) / 10_000) + fee.fixedCents);
}

export const ledgerMessages = {
  problemNotPossible: 'A problem can be reported only on a paid sale whose money has not been released or refunded.',
  problemAlreadyOpen: 'You already reported a problem with this sale; an admin is looking at it.',
  receivedNotHeld: 'This sale is already confirmed, or its money is frozen while an admin looks at your report.',
  handoverFrozen: 'The buyer reported a problem with this sale; an admin decides what happens to the money.',
  problemNotFound: 'No open problem with this id.',
  nothingToPayOut: 'There is no available money to pay out.',
  problemReported: 'Thank you. The money stays frozen while an admin looks at your report.',
  problemReleased: 'The money is released to the seller.',
  problemRefunded: 'The sale is refunded to the buyer.',
  payoutRequested: 'Your payout is on its way.',
  payoutAccountNotSetUp: 'Set up payouts first: choose "Set up payouts" under Get paid, and Stripe asks where to send your money.',
  payoutAccountDetailsNeeded: 'Stripe needs more details from you before it can pay you: choose "Continue setting up" under Get paid.',
  nothingToSetUp: 'Payouts go to the simulated payout provider here; there is nothing to set up.',
} as const;

/** The "Get paid" section of the Earnings screen: where the seller's payouts go. */
export const getPaidTexts = {
  title: 'Get paid',
  simulated: 'Payouts go to the simulated payout provider of this marketplace: each payout is made at once and recorded with its reference. No real money moves.',
  status: 'Status',
  statuses: { 'not-set-up': 'Not set up', 'details-needed': 'Details needed', ready: 'Ready' } satisfies Record<PayoutAccountStatus, string>,
  explanations: {
    'not-set-up': 'Stripe pays your money to your bank account. Setting it up takes a few minutes, once.',
    'details-needed': 'Stripe needs more details from you before it can pay you.',
    ready: 'Your payouts go to your Stripe account, and Stripe pays them to your bank on its payout schedule.',
  } satisfies Record<PayoutAccountStatus, string>,
  setUp: 'Set up payouts',
  continueSetUp: 'Continue setting up',
} as const;

/** The columns and words of a seller's monthly statement (CSV). */
export const statementTexts = {
  columns: ['Date', 'What happened', 'Sale', 'Balance', 'Amount (USD)'],
  kinds: {
    charge: 'Sale paid (held)',
    release: 'Released to you',
    refund: 'Refunded to the buyer',
    payout: 'Paid out',
    reversal: 'Payout failed, money returned',
  } satisfies Record<LedgerTransactionKind, string>,
  accounts: { held: 'Pending', available: 'Available' },
} as const;

/** What a seller receives from a sale once the platform's fee is taken: on the Add Product and Edit forms, and on each of the seller's bookings. */
export const sellerShareTexts = {
  youReceive: (amount: string) => `You receive ${amount}`,
  fee: (fee: string) => `Marketplace fee: ${fee}`,
  agreedPrice: 'Agreed price',
} as const;

/** Buyer protection in My Orders and in the seller's bookings, and the buyer's "Something is wrong". */
export const protectionTexts = {
  title: 'Buyer protection',
  heldUntil: (date: string) => `Money held until ${date}`,
  heldUntilHandover: 'Money held until the piece is handed over',
  released: 'Money released to the seller',
  frozen: 'Money frozen: problem under review',
  releasedUnderReview: 'Money released to the seller; a problem is under review',
  refunded: 'Money refunded to the buyer',
  somethingWrong: 'Something is wrong',
  reportTitle: (productName: string) => `What is wrong with ${productName}?`,
  reportBody: 'An admin looks at your report. Money not yet released to the seller stays frozen until then.',
  reason: 'What is wrong',
  chooseReason: 'Choose one',
  reasons: {
    'not-received': 'I did not get the piece',
    'not-as-described': 'It is not as described',
    damaged: 'It is damaged',
    other: 'Something else',
  } satisfies Record<ProblemReason, string>,
  note: 'Tell us what happened',
  send: 'Send report',
  cancel: 'Cancel',
} as const;

/** The words for a booking's protection, or null for a booking whose money was never held. */
export function protectionState(booking: z.infer<typeof bookingProtection>, formatDate: (iso: string) => string): string | null {
  switch (booking.fundsState) {
    case null:
      return null;
    case 'held':
      return booking.releaseAt ? protectionTexts.heldUntil(formatDate(booking.releaseAt)) : protectionTexts.heldUntilHandover;
    case 'frozen':
      return protectionTexts.frozen;
    case 'released':
      return booking.problemOpen ? protectionTexts.releasedUnderReview : protectionTexts.released;
    case 'refunded':
      return protectionTexts.refunded;
  }
}

/** The seller's Earnings screen. */
export const earningsTexts = {
  title: 'Earnings',
  pending: 'Pending (held)',
  available: 'Available',
  paidOut: 'Paid out',
  payOut: 'Pay out now',
  nothingAvailable: 'Nothing to pay out yet: money becomes available when a buyer confirms receipt, or after the protection period.',
  heldTitle: 'Money on its way to you',
  releasesOn: (date: string) => `Released on ${date}`,
  releaseAfterHandover: 'Released after you hand the piece over',
  frozen: 'Frozen: the buyer reported a problem',
  chartTitle: 'Earnings by week',
  chartLabel: (weeks: number) => `What you received in each of the last ${weeks} weeks`,
  weekOf: (week: string, amount: string) => `Week of ${week}: ${amount}`,
  noWeeklyEarnings: (weeks: number) => `Nothing has reached you in the last ${weeks} weeks. Each week shows here once money from a sale is released to you.`,
  entriesTitle: 'Movements',
  noEntries: 'No sales yet. Your money shows here once a buyer pays.',
  date: 'Date',
  what: 'What happened',
  sale: 'Sale',
  balance: 'Balance',
  amount: 'Amount',
  loadMore: 'Show older movements',
  payoutsTitle: 'Payouts',
  noPayouts: 'No payouts yet.',
  payoutStatus: { pending: 'On its way', paid: 'Paid', failed: 'Failed, money returned' } satisfies Record<PayoutStatus, string>,
  reference: 'Reference',
  statementTitle: 'Monthly statement',
  month: 'Month',
  downloadStatement: 'Download statement (CSV)',
} as const;
