/** Prices are shown with a '$' prefix (section 9). */
export function formatPrice(value: number | string): string {
  const amount = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(amount)) return `$${value}`;
  return `$${Number.isInteger(amount) ? amount : amount.toFixed(2)}`;
}
