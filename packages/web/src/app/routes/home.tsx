import { labels, texts, uiTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { CategoriesGrid } from '../../features/categories/components/categories-grid.tsx';
import { CategoryChips } from '../../features/categories/components/category-chips.tsx';
import { AdvertisementSection } from '../../features/products/components/advertisement-section.tsx';
import { categoriesQuery } from '../../lib/categories.ts';
import heroImage from '../../assets/hero.svg';
import { renderProductActions } from './product-actions.tsx';

/** How many categories Home shows before the More link. */
const HOME_CATEGORY_COUNT = 6;

function Hero() {
  return (
    <section className="hero overflow-hidden rounded-box bg-indigo-900 text-white" aria-labelledby="hero-title">
      <div className="hero-content w-full flex-col gap-8 px-6 py-8 sm:py-12 lg:flex-row-reverse lg:justify-between lg:px-12">
        <img src={heroImage} alt="" width={420} height={300} className="w-full max-w-sm max-sm:hidden" />
        <div className="max-w-xl">
          <h1 id="hero-title" className="text-3xl font-bold sm:text-4xl md:text-5xl">
            {uiTexts.home.heroTitle}
          </h1>
          <p className="py-4 text-lg sm:py-6">
            {uiTexts.home.heroText}
          </p>
          <Link to={paths.categories.getHref()} className="btn btn-lg bg-white text-indigo-900 hover:bg-indigo-100">
            {labels.home.getStarted}
          </Link>
        </div>
      </div>
    </section>
  );
}

export function HomeRoute() {
  const { data: categories = [] } = useQuery(categoriesQuery());
  return (
    <div className="flex flex-col gap-6">
      <Hero />
      <section aria-labelledby="home-categories-title" className="md:py-8">
        <div className="mb-4 flex md:mb-6 items-center justify-between gap-4">
          <h2 id="home-categories-title" className="text-2xl font-bold md:text-3xl">
            {texts.furnitureCategories}
          </h2>
          <Link to={paths.categories.getHref()} className="btn btn-outline btn-primary btn-sm">
            {labels.home.more}
            <span className="sr-only"> {labels.home.moreWhat}</span>
          </Link>
        </div>
        {/* Phones get a compact row, so the advertised pieces are not screens away. */}
        <CategoryChips categories={categories.slice(0, HOME_CATEGORY_COUNT)} className="md:hidden" />
        <div className="max-md:hidden">
          <CategoriesGrid categories={categories.slice(0, HOME_CATEGORY_COUNT)} />
        </div>
      </section>
      <AdvertisementSection renderActions={renderProductActions} />
    </div>
  );
}
