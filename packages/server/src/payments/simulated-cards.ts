import { cardMessages } from '@furniture/contract';

/**
 * How the simulated provider judges a card: the same checks and the same messages as Stripe, and
 * Stripe's documented test cards with their documented outcomes.
 */

export interface CardInput {
  number: string;
  expMonth: string;
  expYear: string;
  cvc: string;
}

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'unknown';

export type CardOutcome =
  | { ok: true; brand: CardBrand; last4: string }
  | { ok: false; code: string; declineCode?: string; message: string };

type TestCardOutcome = { ok: true } | { ok: false; code: string; declineCode?: string; message: string };

const declined = (declineCode: string, message: string = cardMessages.declined): TestCardOutcome => ({
  ok: false,
  code: 'card_declined',
  declineCode,
  message,
});

/** Stripe's test cards (docs.stripe.com/testing) and what each one does. */
export const testCards: ReadonlyMap<string, TestCardOutcome> = new Map<string, TestCardOutcome>([
  ['4242424242424242', { ok: true }],
  ['4000056655665556', { ok: true }],
  ['5555555555554444', { ok: true }],
  ['2223003122003222', { ok: true }],
  ['5200828282828210', { ok: true }],
  ['378282246310005', { ok: true }],
  ['6011111111111117', { ok: true }],
  ['4000000000000002', declined('generic_decline')],
  ['4000000000009995', declined('insufficient_funds', cardMessages.insufficientFunds)],
  ['4000000000009987', declined('lost_card')],
  ['4000000000009979', declined('stolen_card')],
  ['4000000000000069', { ok: false, code: 'expired_card', message: cardMessages.expired }],
  ['4000000000000127', { ok: false, code: 'incorrect_cvc', message: cardMessages.incorrectCvc }],
  ['4000000000000119', { ok: false, code: 'processing_error', message: cardMessages.processingError }],
]);

export function brandOf(number: string): CardBrand {
  if (/^4/.test(number)) return 'visa';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(number)) return 'mastercard';
  if (/^(6011|65|64[4-9])/.test(number)) return 'discover';
  return 'unknown';
}

/** The Luhn check digit test every card number passes. */
export function passesLuhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return number.length > 0 && sum % 10 === 0;
}

const fail = (code: string, message: string): CardOutcome => ({ ok: false, code, message });

/** Checks a card the way Stripe does, in the same order: number, expiry, security code, then the issuer's answer. */
export function judgeCard(card: CardInput, now: Date = new Date()): CardOutcome {
  const number = card.number.replace(/[\s-]/g, '');
  if (number === '') return fail('incomplete_number', cardMessages.incompleteNumber);
  if (!/^\d+$/.test(number)) return fail('invalid_number', cardMessages.invalidNumber);
  const brand = brandOf(number);
  const expectedLength = brand === 'amex' ? 15 : 16;
  if (number.length < Math.min(expectedLength, 13)) return fail('incomplete_number', cardMessages.incompleteNumber);
  if (number.length > 19 || !passesLuhn(number)) return fail('invalid_number', cardMessages.invalidNumber);

  const monthText = card.expMonth.trim();
  const yearText = card.expYear.trim();
  if (monthText === '' || yearText === '') return fail('incomplete_expiry', cardMessages.incompleteExpiry);
  const month = /^\d{1,2}$/.test(monthText) ? Number(monthText) : NaN;
  if (!(month >= 1 && month <= 12)) return fail('invalid_expiry_month', cardMessages.invalidExpiryMonth);
  if (!/^(\d{2}|\d{4})$/.test(yearText)) return fail('invalid_expiry_year', cardMessages.invalidExpiryYear);
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (year < thisYear || (year === thisYear && month < thisMonth)) return fail('invalid_expiry_year', cardMessages.expiryInPast);
  if (year > thisYear + 50) return fail('invalid_expiry_year', cardMessages.invalidExpiryYear);

  const cvc = card.cvc.trim();
  const cvcLength = brand === 'amex' ? 4 : 3;
  if (!/^\d*$/.test(cvc) || cvc.length > cvcLength) return fail('invalid_cvc', cardMessages.invalidCvc);
  if (cvc.length < cvcLength) return fail('incomplete_cvc', cardMessages.incompleteCvc);

  const outcome = testCards.get(number) ?? declined('test_mode_live_card', cardMessages.notATestCard);
  if (!outcome.ok) return outcome;
  return { ok: true, brand, last4: number.slice(-4) };
}
