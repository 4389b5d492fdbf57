import { labels, uiTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { DataTable, DeleteProductButton, ProductThumbnail } from '../../../components/data-table.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { useAdvertiseProduct } from '../api/advertise-product.ts';
import { useDeleteProduct } from '../api/delete-product.ts';
import { myProductsQuery } from '../api/get-my-products.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';

export function MyProductsRoute() {
  const { user } = useAuth();
  const { data: products, isPending } = useQuery({ ...myProductsQuery(user?.email ?? ''), enabled: Boolean(user) });
  const advertise = useAdvertiseProduct();
  const remove = useDeleteProduct();

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
          { header: labels.table.salesStatus, cell: (product) => product.inStock },
          {
            header: labels.table.advertisement,
            cell: (product) =>
              product.advertisement ? (
                <span className="badge badge-success">{uiTexts.advertise.done}</span>
              ) : product.inStock === 'sold' ? (
                <span className="text-sm">{uiTexts.advertise.sold}</span>
              ) : (
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
          { header: labels.table.action, cell: (product) => <DeleteProductButton product={product} remove={remove} /> },
        ]}
        rows={products}
        isPending={isPending}
        empty="You have not listed any products yet."
      />
    </section>
  );
}
