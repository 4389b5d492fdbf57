const priceFormat = { whole: new Intl.NumberFormat('en-US'), cents: new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) };

/** Prices are shown with a '$' prefix (section 9), and thousands separated: "$1,200", "$99.50"; a negative one as "-$135". */
export function formatPrice(value: number | string): string {
  const amount = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(amount)) return `$${value}`;
  return `${amount < 0 ? '-' : ''}$${(Number.isInteger(amount) ? priceFormat.whole : priceFormat.cents).format(Math.abs(amount))}`;
}

/** The formats of one kind of date, by time zone (undefined: the reader's own). */
function dateFormats(options: Intl.DateTimeFormatOptions) {
  const formats = new Map<string | undefined, Intl.DateTimeFormat>();
  return (iso: string, timeZone?: string) => {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso;
    let format = formats.get(timeZone);
    if (!format) formats.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { ...options, timeZone })));
    return format.format(date);
  };
}

/** A moment as people say it, without seconds: "Nov 23, 2026, 3:19 AM"; in the reader's time zone unless one is named. */
export const formatDateTime = dateFormats({ dateStyle: 'medium', timeStyle: 'short' });

/** A day as people say it: "Nov 23, 2026"; in the reader's time zone unless one is named. */
export const formatDate = dateFormats({ dateStyle: 'medium' });

/** A month as people say it: "November 2026" (member since). */
export const formatMonthYear = dateFormats({ year: 'numeric', month: 'long' });

/**
 * The asking price before the last change, when the last change lowered it: shown as "was $X"
 * next to the price (decision 20).
 */
export function priceBeforeDrop(product: { resalePrice: number; priceHistory: { price: number }[] }): number | undefined {
  const previous = product.priceHistory.at(-2)?.price;
  return previous !== undefined && previous > product.resalePrice ? previous : undefined;
}
