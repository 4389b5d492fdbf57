import { productPageTexts, trustWebTexts, uiTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { ProductGrid } from '../../features/products/components/product-grid.tsx';
import { VerifiedTick } from '../../features/products/components/verified-tick.tsx';
import { formatMonthYear } from '../../lib/format.ts';
import { sellerPageQuery } from '../../lib/seller-page.ts';
import { useTimeZone } from '../../lib/time-zone.ts';
import { renderProductActions } from './product-actions.tsx';
import { thumbnailOf } from '../../lib/image-sources.ts';

/** /seller/{id}: who the seller is, how buyers rated them, and what they sell now. */
export function SellerProfileRoute() {
  const { id = '' } = useParams();
  const { data: seller, isPending, error } = useQuery(sellerPageQuery(id));
  const timeZone = useTimeZone();
  if (isPending) return <span className="loading loading-spinner" aria-label={uiTexts.loading} />;
  if (error) return <p role="alert">{error.message}</p>;
  return (
    <article aria-labelledby="seller-name" className="flex flex-col gap-8">
      <header className="flex items-center gap-4">
        {seller.image && <img src={thumbnailOf(seller.image)} alt="" width={80} height={80} className="h-16 w-16 shrink-0 rounded-full object-cover sm:h-20 sm:w-20" />}
        <div className="min-w-0">
          <h1 id="seller-name" className="flex flex-wrap items-center gap-2 text-2xl font-bold break-words sm:text-3xl">
            {seller.name} <VerifiedTick verified={seller.verified} />
          </h1>
          <p>
            {productPageTexts.memberSince(formatMonthYear(seller.memberSince, timeZone))} · {productPageTexts.itemsSold(seller.itemsSold)}
          </p>
          <p data-testid="seller-rating">{trustWebTexts.ratingSummary(seller.rating, seller.reviewCount)}</p>
        </div>
      </header>
      {seller.reviews.length > 0 && (
        <section aria-labelledby="reviews-title">
          <h2 id="reviews-title" className="mb-2 text-2xl font-bold">
            {trustWebTexts.reviewsTitle}
          </h2>
          <ul className="flex flex-col gap-3">
            {seller.reviews.map((review) => (
              <li key={review._id} className="rounded-box border border-base-300 p-3">
                <p className="font-semibold">
                  {review.authorName} · {'★'.repeat(review.rating)}
                  <span className="sr-only">{` ${review.rating} / 5`}</span>
                </p>
                <p>{review.text}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="listings-title">
        <h2 id="listings-title" className="mb-4 text-2xl font-bold">
          {trustWebTexts.listingsTitle}
        </h2>
        {seller.listings.length === 0 ? (
          <p>{trustWebTexts.noListings}</p>
        ) : (
          <ProductGrid products={seller.listings} renderActions={renderProductActions} />
        )}
      </section>
    </article>
  );
}
