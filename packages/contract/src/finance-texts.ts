/*
 * Apart from ledger.ts's schemas, so that the page titles (web-routes.ts) do not bring zod along
 * (docs/decisions/0026).
 */
import type { FundsState } from './enums.ts';

/** The admin's Finance screen (GET /api/admin/finance) and the decisions on reported problems. */
export const financeTexts = {
  title: 'Finance',
  held: 'Held for buyer protection',
  fees: 'Fees earned',
  paidOut: 'Paid out to sellers',
  refunded: 'Refunded to buyers',
  payouts: 'Payouts',
  payoutCounts: (paid: number, failed: number) => `${paid} made, ${failed} failed`,
  ledgerCheck: 'Ledger check',
  balanced: 'The books balance: all movements add up to zero.',
  unbalanced: (amount: string) => `The books are off by ${amount}. Pay nobody out until this is explained.`,
  problemsTitle: 'Problems reported by buyers',
  noProblems: 'No open problems. Reports from buyers show here.',
  buyer: 'Buyer',
  seller: 'Seller',
  amount: 'Amount',
  reason: 'What is wrong',
  reported: 'Reported',
  money: 'Money',
  fundsState: { held: 'Held', frozen: 'Frozen', released: 'Already released to the seller', refunded: 'Refunded' } satisfies Record<FundsState, string>,
  release: 'Release to the seller',
  refund: 'Refund the buyer',
  confirmRelease: {
    title: (amount: string, sellerName: string) => `Release ${amount} to ${sellerName}?`,
    body: 'The seller gets the money, less the fee, and the report is closed.',
    confirm: 'Yes, release',
  },
  confirmRefund: {
    title: (amount: string, buyerName: string) => `Refund ${amount} to ${buyerName}?`,
    body: 'The buyer gets the whole amount back and the report is closed. This cannot be undone.',
    confirm: 'Yes, refund',
  },
  keep: 'Not now',
} as const;
