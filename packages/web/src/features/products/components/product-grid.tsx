import type { Product } from '@furniture/contract';
import type { ReactNode } from 'react';
import { ProductCard } from './product-card.tsx';

/**
 * Product cards in 1, 2 and 3 columns on small, medium and large screens. `compact` (search
 * results): on a phone, two columns of cards that show the price and the place but not the other
 * details (the `compact-cards` rules in index.css), so a screen shows several pieces.
 */
export function ProductGrid({
  products,
  renderActions,
  compact = false,
}: {
  products: Product[];
  renderActions?: (product: Product) => ReactNode;
  compact?: boolean;
}) {
  return (
    <ul className={`grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3 ${compact ? 'compact-cards' : ''}`}>
      {products.map((product) => (
        <li key={product._id}>
          <ProductCard product={product} actions={renderActions?.(product)} />
        </li>
      ))}
    </ul>
  );
}
