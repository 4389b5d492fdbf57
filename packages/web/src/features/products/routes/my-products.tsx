import { labels } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { DataTable, DeleteProductButton, ProductThumbnailCell } from '../../../components/data-table.tsx';
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
        headers={[
          labels.table.productImage,
          labels.table.productTitle,
          labels.table.salesStatus,
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
            <td>{product.inStock}</td>
            <td>
              {product.advertisement ? (
                <span className="badge badge-success">Advertised</span>
              ) : (
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  aria-label={`${labels.table.add} advertisement: ${product.productName}`}
                  disabled={advertise.isPending && advertise.variables === product._id}
                  onClick={() => handleAdvertise(product._id)}
                >
                  {labels.table.add}
                </button>
              )}
            </td>
            <td>
              <DeleteProductButton product={product} remove={remove} />
            </td>
          </>
        )}
      </DataTable>
    </section>
  );
}
