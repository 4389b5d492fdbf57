/** Every payment is in US dollars. */
export const CURRENCY = 'usd';
