import { searchTexts, texts, uiTexts } from '@furniture/contract';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Spinner } from '../../components/spinner.tsx';
import { paths } from '../../config/paths.ts';
import { ProductGrid } from '../../features/products/components/product-grid.tsx';
import { categoryProductsQuery } from '../../features/products/api/get-category-products.ts';
import { categoriesQuery } from '../../lib/categories.ts';
import { renderProductActions } from './product-actions.tsx';

/** Available Products of one category (/category/{id}). */
export function CategoryRoute() {
  const { id = '' } = useParams();
  const { data: products } = useSuspenseQuery(categoryProductsQuery(id));
  return (
    <CategoryPage>
      {products.length === 0 ? (
        <p className="py-6">{uiTexts.categories.noProducts}</p>
      ) : (
        <ProductGrid products={products} renderActions={renderProductActions} />
      )}
    </CategoryPage>
  );
}

/**
 * The page as the server sends it and the app hydrates it: its products need the signed-in user, so
 * they come once the route's guard and loader have run in the browser.
 */
export function CategoryShell() {
  return (
    <CategoryPage>
      <Spinner />
    </CategoryPage>
  );
}

function CategoryPage({ children }: { children: ReactNode }) {
  const { id = '' } = useParams();
  const { data: categories } = useQuery(categoriesQuery());
  const category = categories?.find((candidate) => candidate._id === id);
  return (
    <section aria-labelledby="category-title">
      <h1 id="category-title" className="text-3xl font-bold">
        {texts.availableProducts}
      </h1>
      {category && <p className="mt-1 text-lg">{category.categoryName}</p>}
      <Link to={paths.search.getHref({ categoryId: id })} className="link mb-6 mt-2 inline-block">
        {searchTexts.filterCategory}
      </Link>
      {children}
    </section>
  );
}
