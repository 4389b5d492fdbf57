import { labels, saleTexts, trustWebTexts, uiTexts, type SellerProduct } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { DataTable, DeleteProductButton, ProductThumbnail } from '../../../components/data-table.tsx';
import { AppealButton } from '../components/appeal-button.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useAdvertiseProduct } from '../api/advertise-product.ts';
import { useChangeListing, type ListingStep } from '../api/change-listing.ts';
import { useDeleteProduct } from '../api/delete-product.ts';
import { myProductsQuery } from '../api/get-my-products.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';

export function MyProductsRoute() {
  const { user } = useAuth();
  const { data: products, isPending } = useQuery({ ...myProductsQuery(user?.email ?? ''), enabled: Boolean(user) });
  const advertise = useAdvertiseProduct();
  const remove = useDeleteProduct();
  const changeListing = useChangeListing();

  async function handleStep(id: string, step: ListingStep) {
    try {
      const response = await changeListing.mutateAsync({ id, step });
      notify.success(response.message);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  /** The steps a listing's state allows (decision 20), each a button named for its listing. */
  function listingActions(product: SellerProduct) {
    const steps: { step: ListingStep; label: string }[] = [];
    if (product.state === 'available') steps.push({ step: 'renew', label: saleTexts.renew });
    if (product.state === 'expired' || product.state === 'withdrawn') steps.push({ step: 'renew', label: saleTexts.relist });
    if (product.state === 'available' || product.state === 'expired') steps.push({ step: 'withdraw', label: saleTexts.withdraw });
    if (product.state !== 'sold') steps.push({ step: 'sold-elsewhere', label: saleTexts.soldElsewhere });
    const busy = changeListing.isPending && changeListing.variables?.id === product._id;
    return (
      <div className="flex flex-wrap justify-end gap-2 md:justify-start">
        {product.state !== 'sold' && (
          <Link to={paths.dashboard.editProduct.getHref(product._id)} className="btn btn-sm" aria-label={`${saleTexts.edit} ${product.productName}`}>
            {saleTexts.edit}
          </Link>
        )}
        {steps.map(({ step, label }) => (
          <button
            key={step}
            type="button"
            className="btn btn-sm btn-outline"
            aria-label={`${label}: ${product.productName}`}
            disabled={busy}
            onClick={() => handleStep(product._id, step)}
          >
            {label}
          </button>
        ))}
        <DeleteProductButton product={product} remove={remove} />
      </div>
    );
  }

  async function handleAdvertise(id: string) {
    try {
      const response = await advertise.mutateAsync(id);
      notify.success(response.message);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <section aria-labelledby="my-products-title">
      <h1 id="my-products-title" className="mb-6 text-2xl font-bold">
        {labels.dashboardMenu.myProducts}
      </h1>
      <DataTable
        columns={[
          { header: labels.table.productImage, cell: (product) => <ProductThumbnail product={product} /> },
          { header: labels.table.productTitle, cell: (product) => product.productName },
          {
            header: labels.table.salesStatus,
            cell: (product) => (
              <div className="flex flex-col items-end gap-1 md:items-start">
                <span className="badge h-auto">{saleTexts.listingState[product.state].seller}</span>
                {product.state === 'available' && (
                  <span className="text-xs">{saleTexts.expiresOn(formatDate(product.expiresAt))}</span>
                )}
                {product.moderation && (
                  <span data-testid="moderation">
                    <span className="badge badge-error h-auto">
                      {product.moderation === 'hidden' ? trustWebTexts.hiddenBadge : trustWebTexts.removedBadge}
                    </span>
                    <span className="block text-xs">{trustWebTexts.moderationReason(product.moderationReason ?? '')}</span>
                    {product.appeal && (
                      <span className="block text-xs" data-testid="appeal">
                        {trustWebTexts.appealStates[product.appeal.status]}
                        {product.appeal.answer && <span className="block">{trustWebTexts.appealAnswer(product.appeal.answer)}</span>}
                      </span>
                    )}
                    {product.canAppeal && <AppealButton productId={product._id} productName={product.productName} />}
                  </span>
                )}
              </div>
            ),
          },
          { header: saleTexts.interest, cell: (product) => saleTexts.interestValue(product.views, product.wishCount, product.bookingCount) },
          {
            header: labels.table.advertisement,
            cell: (product) =>
              product.advertisement ? (
                <span className="badge badge-success">{uiTexts.advertise.done}</span>
              ) : product.state === 'sold' ? (
                <span className="text-sm">{uiTexts.advertise.sold}</span>
              ) : product.state !== 'available' ? null : (
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  aria-label={`${uiTexts.advertise.action}: ${product.productName}`}
                  disabled={advertise.isPending && advertise.variables === product._id}
                  onClick={() => handleAdvertise(product._id)}
                >
                  {uiTexts.advertise.action}
                </button>
              ),
          },
          { header: labels.table.action, cell: (product) => listingActions(product) },
        ]}
        rows={products}
        isPending={isPending}
        empty={{
          text: uiTexts.emptyLists.products,
          hint: uiTexts.emptyLists.productsHint,
          action: { label: uiTexts.emptyLists.addProduct, to: paths.dashboard.addProducts.getHref() },
        }}
      />
    </section>
  );
}
