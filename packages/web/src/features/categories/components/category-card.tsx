import { labels, searchTexts, type Category } from '@furniture/contract';
import { Link } from 'react-router';
import { CardImage } from '../../../components/card-image.tsx';
import { paths } from '../../../config/paths.ts';

export function CategoryCard({ category, headingLevel = 'h3' }: { category: Category; headingLevel?: 'h2' | 'h3' }) {
  const Heading = headingLevel;
  return (
    <article className="card h-full bg-base-100 shadow-md">
      <figure className="aspect-[4/3] bg-base-200">
        <CardImage url={category.image} alt={category.categoryName} />
      </figure>
      <div className="card-body">
        <Heading className="card-title">{category.categoryName}</Heading>
        <p>{category.description}</p>
        <div className="card-actions justify-end">
          <Link
            to={paths.search.getHref({ categoryId: category._id })}
            className="btn btn-ghost"
            aria-label={searchTexts.searchInCategory(category.categoryName)}
          >
            {searchTexts.searchCategory}
          </Link>
          <Link
            to={paths.category.getHref(category._id)}
            className="btn btn-primary"
            aria-label={`${labels.categories.seeProducts}: ${category.categoryName}`}
          >
            {labels.categories.seeProducts}
          </Link>
        </div>
      </div>
    </article>
  );
}
