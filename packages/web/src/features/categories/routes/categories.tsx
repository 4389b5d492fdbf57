import { labels } from '@furniture/contract';
import { useSuspenseQuery } from '@tanstack/react-query';
import { categoriesQuery } from '../../../lib/categories.ts';
import { CategoriesGrid } from '../components/categories-grid.tsx';

export function CategoriesRoute() {
  const { data: categories } = useSuspenseQuery(categoriesQuery());
  return (
    <section aria-labelledby="categories-title">
      <h1 id="categories-title" className="mb-6 text-3xl font-bold">
        {labels.nav.categories}
      </h1>
      <CategoriesGrid categories={categories} headingLevel="h2" />
    </section>
  );
}
