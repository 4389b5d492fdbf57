import { labels, messages } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../../components/spinner.tsx';
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

  async function handleDelete(id: string) {
    try {
      const response = await remove.mutateAsync(id);
      if (response.deletedCount) notify.success(messages.productDeleted);
    } catch (error) {
      // Section 8: a failed delete is silent.
      console.error(error);
    }
  }

  return (
    <section aria-labelledby="my-products-title">
      <h1 id="my-products-title" className="mb-6 text-2xl font-bold">
        {labels.dashboardMenu.myProducts}
      </h1>
      {isPending ? (
        <Spinner />
      ) : !products?.length ? (
        <p>You have not listed any products yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{labels.table.productImage}</th>
                <th scope="col">{labels.table.productTitle}</th>
                <th scope="col">{labels.table.salesStatus}</th>
                <th scope="col">{labels.table.advertisement}</th>
                <th scope="col">{labels.table.action}</th>
              </tr>
            </thead>
            <tbody>
              {products.map((product) => (
                <tr key={product._id}>
                  <td>
                    <img src={product.productImage} alt={product.productName} className="h-14 w-14 rounded object-cover" />
                  </td>
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
                    <button
                      type="button"
                      className="btn btn-error btn-sm"
                      aria-label={`${labels.table.delete} ${product.productName}`}
                      disabled={remove.isPending && remove.variables === product._id}
                      onClick={() => handleDelete(product._id)}
                    >
                      {labels.table.delete}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
