import { labels, uiTexts, type Category } from '@furniture/contract';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { thumbnailOf } from '../../../lib/image-sources.ts';

/** Categories as one compact row that scrolls sideways on its own: Home on a phone, where full cards would fill screens. */
export function CategoryChips({ categories, className = '' }: { categories: Category[]; className?: string }) {
  if (categories.length === 0) return <p className={`py-6 text-center ${className}`}>{uiTexts.categories.none}</p>;
  return (
    <ul className={`-mx-2 flex gap-2 overflow-x-auto px-2 pb-2 ${className}`}>
      {categories.map((category) => (
        <li key={category._id} className="flex-none">
          <Link
            to={paths.category.getHref(category._id)}
            className="btn btn-outline h-auto gap-2 rounded-full py-1 pr-4 pl-1 font-medium normal-case"
            aria-label={`${labels.categories.seeProducts}: ${category.categoryName}`}
          >
            <img src={thumbnailOf(category.image)} alt="" width={32} height={32} loading="lazy" className="h-8 w-8 rounded-full object-cover" />
            {category.categoryName}
          </Link>
        </li>
      ))}
    </ul>
  );
}
