import { labels, saleTexts, type SellerProduct, trustWebTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { DataTable, DeleteProductButton, ProductThumbnailCell } from '../../../components/data-table.tsx';
import { useAuth } from '../../../lib/auth.tsx';
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
      <div className="flex flex-wrap gap-2">
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
        headers={[
          labels.table.productImage,
          labels.table.productTitle,
          labels.table.salesStatus,
          saleTexts.interest,
          labels.table.advertisement,
          labels.table.action,
        ]}
        rows={products}
        isPending={isPending}
        empty="You have not listed any products yet."
      >
        {(product) => (
          <>
            <ProductThumbnailCell product={product} />
            <td>{product.productName}</td>
            <td>
              <span className="badge">{saleTexts.listingState[product.state]}</span>
              {product.state === 'available' && (
                <span className="block text-xs">{saleTexts.expiresOn(new Date(product.expiresAt).toLocaleDateString('en-US'))}</span>
              )}
              {product.moderation && (
                <span className="block" data-testid="moderation">
                  <span className="badge badge-error">
                    {product.moderation === 'hidden' ? trustWebTexts.hiddenBadge : trustWebTexts.removedBadge}
                  </span>
                  <span className="block text-xs">{trustWebTexts.moderationReason(product.moderationReason ?? '')}</span>
                </span>
              )}
            </td>
            <td>{saleTexts.interestValue(product.views, product.wishCount, product.bookingCount)}</td>
            <td>
              {product.advertisement ? (
                <span className="badge badge-success">Advertised</span>
              ) : product.state === 'available' ? (
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  aria-label={`${labels.table.add} advertisement: ${product.productName}`}
                  disabled={advertise.isPending && advertise.variables === product._id}
                  onClick={() => handleAdvertise(product._id)}
                >
                  {labels.table.add}
                </button>
              ) : null}
            </td>
            <td>{listingActions(product)}</td>
          </>
        )}
      </DataTable>
    </section>
  );
}
