import { saleTexts } from '@furniture/contract';
import { formatPrice, priceBeforeDrop } from '../../../lib/format.ts';

/** "was $X", struck through, after a price that was lowered. */
export function WasPrice({ product }: { product: { resalePrice: number; priceHistory: { price: number }[] } }) {
  const before = priceBeforeDrop(product);
  if (before === undefined) return null;
  return <s className="ml-2 text-sm font-normal">{saleTexts.wasPrice(formatPrice(before))}</s>;
}
