import { distanceKmBetween, labels, locationTexts, productPageTexts, saleTexts, texts, trustWebTexts, uiTexts, type GoneProduct } from '@furniture/contract';
import { useSuspenseQuery } from '@tanstack/react-query';
import { lazy } from 'react';
import { Link, useParams, useRouteError } from 'react-router';
import { RouteErrorPage } from '../../components/error-page.tsx';
import { WhenInView } from '../../components/when-in-view.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { paths } from '../../config/paths.ts';
import { productQuery } from '../../features/products/api/get-product.ts';
import { ReportButton } from '../../features/moderation/components/report-button.tsx';
import { PhotoGallery } from '../../features/products/components/photo-gallery.tsx';
import { ProductGrid } from '../../features/products/components/product-grid.tsx';
import { VerifiedTick } from '../../features/products/components/verified-tick.tsx';
import { WasPrice } from '../../features/products/components/was-price.tsx';
import { formatDateTime, formatMonthYear, formatPrice } from '../../lib/format.ts';
import { usePageHead } from '../../lib/page-head.ts';
import { errorMessage, notify } from '../../lib/notify.ts';
import { renderProductActions } from './product-actions.tsx';
import { thumbnailOf } from '../../lib/image-sources.ts';
import { useTimeZone } from '../../lib/time-zone.ts';
import { useChosenLocation } from '../../lib/places.ts';

// Leaflet comes with the map, after the page.
const AreaMap = lazy(() => import('../../components/area-map.tsx'));

/** /product/{id}: every photo and field of one piece, its seller, Wish and Book Now, and similar pieces. */
export function ProductRoute() {
  const { id = '' } = useParams();
  const { data: product } = useSuspenseQuery(productQuery(id));
  const available = product.inStock === 'available';
  const timeZone = useTimeZone();
  const viewer = useChosenLocation();
  usePageHead(product.productName, product.description);

  async function share() {
    try {
      await navigator.clipboard.writeText(window.location.href);
      notify.success(productPageTexts.shareCopied);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <article aria-labelledby="product-title" className="flex flex-col gap-10">
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-2">
        <PhotoGallery photos={product.photos} name={product.productName} />
        <div className="flex flex-col gap-4">
          <div>
            <Link to={paths.search.getHref({ categoryId: product.category._id })} className="link text-sm">
              {product.category.categoryName}
            </Link>
            <h1 id="product-title" className="text-3xl font-bold">
              {product.productName}
            </h1>
          </div>
          <p className="text-3xl font-bold">
            {formatPrice(product.resalePrice)}
            <WasPrice product={product} />
          </p>
          <p>{product.description}</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="font-semibold">{uiTexts.productDetails.condition}</dt>
            <dd>{product.condition}</dd>
            <dt className="font-semibold">{labels.product.yearOfUsed}:</dt>
            <dd>{product.yearsOfUsedProduct}</dd>
            <dt className="font-semibold">{labels.product.originalPrice}:</dt>
            <dd>{formatPrice(product.originalPrice)}</dd>
            <dt className="font-semibold">{labels.product.resalePrice}:</dt>
            <dd className="font-bold">{formatPrice(product.resalePrice)}</dd>
            <dt className="font-semibold">{productPageTexts.measurements}:</dt>
            <dd data-testid="measurements">
              {product.measurements ? productPageTexts.measurementsValue(product.measurements) : productPageTexts.noMeasurements}
            </dd>
            <dt className="font-semibold">{labels.table.inStock}:</dt>
            <dd data-testid="stock">{saleTexts.listingState[product.state].visitor}</dd>
            <dt className="font-semibold">{uiTexts.productDetails.location}</dt>
            <dd>
              {product.location}
              {viewer && product.point && (
                <span className="block text-sm opacity-80" data-testid="product-distance">
                  {uiTexts.productDetails.away(distanceKmBetween(viewer, product.point))}
                </span>
              )}
            </dd>
            <dt className="font-semibold">{uiTexts.productDetails.posted}</dt>
            <dd>
              <time dateTime={product.postedAt}>
                {formatDateTime(product.postedAt, timeZone)}
              </time>
            </dd>
          </dl>
          <div className="flex flex-wrap gap-2">
            {available ? (
              renderProductActions(product)
            ) : (
              <button type="button" className="btn" disabled>
                {texts.unavailable}
              </button>
            )}
            <button type="button" className="btn btn-ghost" onClick={() => void share()}>
              {productPageTexts.share}
            </button>
            <ReportButton
              targetType="product"
              targetId={product._id}
              ownerId={product.seller._id}
              title={trustWebTexts.reportTitle(product.productName)}
            />
          </div>
          {product.point && (
            <section aria-labelledby="area-title" className="flex flex-col gap-2">
              <h2 id="area-title" className="text-xl font-bold">
                {locationTexts.areaTitle}
              </h2>
              <WhenInView fallback={<div className="h-56 w-full rounded-box bg-base-200" />}>
                <AreaMap point={product.point} place={product.location} />
              </WhenInView>
              <p className="text-sm">{locationTexts.areaHint}</p>
            </section>
          )}
          <section aria-labelledby="seller-title" className="rounded-box border border-base-300 p-4">
            <h2 id="seller-title" className="mb-2 font-semibold">
              {productPageTexts.seller}
            </h2>
            <div className="flex items-center gap-3">
              {product.seller.image && <img src={thumbnailOf(product.seller.image)} alt="" width={48} height={48} className="h-12 w-12 rounded-full object-cover" />}
              <div>
                <p className="flex items-center gap-1 font-semibold" data-testid="seller">
                  {product.seller.name} <VerifiedTick verified={product.seller.verified} />
                </p>
                <p className="text-sm">
                  {productPageTexts.memberSince(formatMonthYear(product.seller.memberSince, timeZone))} · {productPageTexts.itemsSold(product.seller.itemsSold)}
                </p>
                <p className="text-sm" data-testid="seller-rating">
                  {trustWebTexts.ratingSummary(product.seller.rating, product.seller.reviewCount)}
                </p>
                <Link to={paths.seller.getHref(product.seller._id)} className="link text-sm">
                  {trustWebTexts.sellerProfileLink}
                </Link>
              </div>
            </div>
          </section>
        </div>
      </div>
      {product.similar.length > 0 && (
        <section aria-labelledby="similar-title">
          <h2 id="similar-title" className="mb-4 text-2xl font-bold">
            {productPageTexts.similar}
          </h2>
          <ProductGrid products={product.similar} renderActions={renderProductActions} />
        </section>
      )}
    </article>
  );
}

/** A product page that failed: a listing that is gone says so and offers similar pieces; anything else, the error page. */
export function ProductErrorRoute() {
  const error = useRouteError();
  if (error instanceof ApiError && error.status === 410) return <GoneListing gone={(error.body as GoneProduct).data} />;
  return <RouteErrorPage />;
}

function GoneListing({ gone }: { gone: GoneProduct['data'] }) {
  usePageHead(productPageTexts.goneTitle(gone.productName));
  return (
    <section aria-labelledby="gone-title" className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 id="gone-title" className="text-3xl font-bold">
          {productPageTexts.goneTitle(gone.productName)}
        </h1>
        <p className="text-lg">{productPageTexts.gone}</p>
        <p>{gone.similar.length > 0 ? productPageTexts.goneExplained : productPageTexts.goneNoSimilar}</p>
        <Link to={paths.home.getHref()} className="btn btn-primary self-start">
          {labels.errorPage.home}
        </Link>
      </div>
      {gone.similar.length > 0 && (
        <section aria-labelledby="gone-similar-title">
          <h2 id="gone-similar-title" className="mb-4 text-2xl font-bold">
            {productPageTexts.similar}
          </h2>
          <ProductGrid products={gone.similar} renderActions={renderProductActions} />
        </section>
      )}
    </section>
  );
}
