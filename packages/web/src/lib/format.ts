const priceFormat = { whole: new Intl.NumberFormat('en-US'), cents: new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) };

/** Prices are shown with a '$' prefix (section 9), and thousands separated: "$1,200", "$99.50". */
export function formatPrice(value: number | string): string {
  const amount = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(amount)) return `$${value}`;
  return `$${(Number.isInteger(amount) ? priceFormat.whole : priceFormat.cents).format(amount)}`;
}

const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A moment as people say it, without seconds: "Nov 23, 2026, 3:19 AM". */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}

const monthYearFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long' });

/** A month as people say it: "November 2026" (member since). */
export function formatMonthYear(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : monthYearFormat.format(date);
}

/**
 * The asking price before the last change, when the last change lowered it: shown as "was $X"
 * next to the price (decision 20).
 */
export function priceBeforeDrop(product: { resalePrice: number; priceHistory: { price: number }[] }): number | undefined {
  const previous = product.priceHistory.at(-2)?.price;
  return previous !== undefined && previous > product.resalePrice ? previous : undefined;
}
