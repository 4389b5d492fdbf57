import type { Product } from '@furniture/contract';
import type { ReactNode } from 'react';
import { ProductCard } from './product-card.tsx';

/** Product cards in 1, 2 and 3 columns on small, medium and large screens. */
export function ProductGrid({ products, renderActions }: { products: Product[]; renderActions?: (product: Product) => ReactNode }) {
  return (
    <ul className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3">
      {products.map((product) => (
        <li key={product._id}>
          <ProductCard product={product} actions={renderActions?.(product)} />
        </li>
      ))}
    </ul>
  );
}
