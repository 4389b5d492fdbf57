import { uiTexts, type Category } from '@furniture/contract';
import { CategoryCard } from './category-card.tsx';

export function CategoriesGrid({ categories, headingLevel }: { categories: Category[]; headingLevel?: 'h2' | 'h3' }) {
  if (categories.length === 0) return <p className="py-6 text-center">{uiTexts.categories.none}</p>;
  return (
    <ul className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3">
      {categories.map((category) => (
        <li key={category._id}>
          <CategoryCard category={category} {...(headingLevel ? { headingLevel } : {})} />
        </li>
      ))}
    </ul>
  );
}
