import { texts, type Product } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { advertisedProductsQuery } from '../api/get-advertised-products.ts';
import { ProductGrid } from './product-grid.tsx';

/** Home's Advertisement section; hidden while there is nothing advertised. */
export function AdvertisementSection({ renderActions }: { renderActions?: (product: Product) => ReactNode }) {
  const { data: products = [] } = useQuery(advertisedProductsQuery());
  if (products.length === 0) return null;
  return (
    <section aria-labelledby="advertisement-title" className="py-8">
      <h2 id="advertisement-title" className="mb-6 text-center text-3xl font-bold">
        {texts.advertisement}
      </h2>
      <ProductGrid products={products} {...(renderActions ? { renderActions } : {})} />
    </section>
  );
}
