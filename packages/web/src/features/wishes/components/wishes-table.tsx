import { labels, messages, type Wish } from '@furniture/contract';
import type { ReactNode } from 'react';
import { formatPrice } from '../../../lib/format.ts';
import { useDeleteWish } from '../api/delete-wish.ts';
import { notify } from '../../../lib/notify.ts';

/** The buyer's wished products; `renderOrder` supplies each row's Order action. */
export function WishesTable({ wishes, renderOrder }: { wishes: Wish[]; renderOrder: (wish: Wish) => ReactNode }) {
  const remove = useDeleteWish();

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
    <div className="overflow-x-auto">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">{labels.table.productImage}</th>
            <th scope="col">{labels.table.productTitle}</th>
            <th scope="col">{labels.product.resalePrice}</th>
            <th scope="col">{labels.table.inStock}</th>
            <th scope="col">{labels.table.order}</th>
            <th scope="col">{labels.table.delete}</th>
          </tr>
        </thead>
        <tbody>
          {wishes.map((wish) => (
            <tr key={wish._id}>
              <td>
                <img src={wish.productImage} alt={wish.productName} className="h-14 w-14 rounded object-cover" />
              </td>
              <td>{wish.productName}</td>
              <td>{formatPrice(wish.resalePrice)}</td>
              <td>{wish.inStock}</td>
              <td>{renderOrder(wish)}</td>
              <td>
                <button
                  type="button"
                  className="btn btn-error btn-sm"
                  aria-label={`${labels.table.delete} ${wish.productName}`}
                  disabled={remove.isPending && remove.variables === wish._id}
                  onClick={() => handleDelete(wish._id)}
                >
                  {labels.table.delete}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
