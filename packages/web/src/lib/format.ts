/** Prices are shown with a '$' prefix (section 9). */
export function formatPrice(value: number | string): string {
  const amount = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(amount)) return `$${value}`;
  return `$${Number.isInteger(amount) ? amount : amount.toFixed(2)}`;
}

/**
 * The asking price before the last change, when the last change lowered it: shown as "was $X"
 * next to the price (decision 20).
 */
export function priceBeforeDrop(product: { resalePrice: number; priceHistory: { price: number }[] }): number | undefined {
  const previous = product.priceHistory.at(-2)?.price;
  return previous !== undefined && previous > product.resalePrice ? previous : undefined;
}
