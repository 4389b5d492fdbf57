import { labels, texts, trustWebTexts, uiTexts, type Product } from '@furniture/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CardImage } from '../../../components/card-image.tsx';
import { paths } from '../../../config/paths.ts';
import { formatDateTime, formatPrice } from '../../../lib/format.ts';
import { useTimeZone } from '../../../lib/time-zone.ts';
import { VerifiedTick } from './verified-tick.tsx';
import { WasPrice } from './was-price.tsx';

const conditionBadge: Record<Product['condition'], string> = {
  Excellent: 'badge-success',
  Good: 'badge-info',
  Fair: 'badge-warning',
};

/** The seller's rating in a few characters ("4.6 ★ (12)"), read out in words; nothing before the first review. */
function SellerRating({ rating }: { rating: Product['sellerRating'] }) {
  if (!rating) return null;
  return (
    <span className="whitespace-nowrap text-sm" data-testid="card-seller-rating">
      <span aria-hidden="true">{trustWebTexts.sellerRatingShort(rating.average, rating.count)}</span>
      <span className="sr-only">{trustWebTexts.ratingSummary(rating.average, rating.count)}</span>
    </span>
  );
}

/**
 * A product with every field of section 2. `actions` (Wish and Book Now) show only while the
 * product is available; otherwise a disabled Unavailable button takes their place. The details
 * marked secondary give way in compact grids on phones (ProductGrid).
 */
export function ProductCard({ product, actions }: { product: Product; actions?: ReactNode }) {
  const timeZone = useTimeZone();
  const available = product.inStock === 'available';
  return (
    <article className="card h-full bg-base-100 shadow-md" aria-labelledby={`product-${product._id}`} data-testid="product-card">
      <figure className="aspect-[4/3] bg-base-200">
        <CardImage url={product.productImage} alt={product.productName} />
      </figure>
      <div className="card-body gap-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 id={`product-${product._id}`} className="card-title">
            <Link to={paths.product.getHref(product._id)} className="link-hover">
              {product.productName}
            </Link>
          </h3>
          <span className={`badge ${conditionBadge[product.condition]}`}>{product.condition}</span>
        </div>
        <p>{product.description}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="font-semibold" data-detail="secondary">{labels.product.yearOfUsed}:</dt>
          <dd data-detail="secondary">{product.yearsOfUsedProduct}</dd>
          <dt className="font-semibold" data-detail="secondary">{labels.product.originalPrice}:</dt>
          <dd data-detail="secondary">{formatPrice(product.originalPrice)}</dd>
          <dt className="font-semibold">{labels.product.resalePrice}:</dt>
          <dd className="font-bold">
            {formatPrice(product.resalePrice)}
            <WasPrice product={product} />
          </dd>
          <dt className="font-semibold" data-detail="secondary">{uiTexts.productDetails.seller}</dt>
          <dd className="flex flex-wrap items-center gap-1" data-testid="seller" data-detail="secondary">
            <span>{product.sellerName}</span>
            <VerifiedTick verified={product.sellerVerified} />
            <SellerRating rating={product.sellerRating} />
          </dd>
          <dt className="font-semibold">{uiTexts.productDetails.location}</dt>
          <dd>
            {product.location}
            {product.distanceKm !== undefined && <span className="block text-sm opacity-80">{uiTexts.productDetails.away(product.distanceKm)}</span>}
          </dd>
          <dt className="font-semibold" data-detail="secondary">{uiTexts.productDetails.posted}</dt>
          <dd data-detail="secondary">
            <time dateTime={product.postedAt}>
              {formatDateTime(product.postedAt, timeZone)}
            </time>
          </dd>
        </dl>
        <div className="card-actions mt-auto justify-end pt-2">
          {available ? (
            actions
          ) : (
            <button type="button" className="btn" disabled>
              {texts.unavailable}
            </button>
          )}
        </div>
      </div>
    </article>
  );
}
