/** Prices are stored as exact decimals ("150.00"); card providers take whole cents. */
export function toCents(price: string): number {
  const match = /^(\d+)(?:\.(\d{1,2})\d*)?$/.exec(price.trim());
  if (!match) throw new Error(`Not a price: ${price}`);
  const [, whole, fraction = ''] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** "$150.00", the way the specification shows prices. */
export function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** Every payment is in US dollars. */
export const CURRENCY = 'usd';

/** The smallest card payment Stripe accepts in US dollars. */
export const MINIMUM_CHARGE_CENTS = 50;
