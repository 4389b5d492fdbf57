import { labels, type Wish } from '@furniture/contract';
import type { ReactNode } from 'react';
import { DataTable, DeleteProductButton, ProductThumbnailCell } from '../../../components/data-table.tsx';
import { formatPrice } from '../../../lib/format.ts';
import { useDeleteWish } from '../api/delete-wish.ts';

type WishesTableProps = {
  wishes: Wish[] | undefined;
  isPending: boolean;
  /** Each row's Order action. */
  renderOrder: (wish: Wish) => ReactNode;
};

/** The buyer's wished products, or a spinner while they load and a message when there are none. */
export function WishesTable({ wishes, isPending, renderOrder }: WishesTableProps) {
  const remove = useDeleteWish();

  return (
    <DataTable
      headers={[
        labels.table.productImage,
        labels.table.productTitle,
        labels.product.resalePrice,
        labels.table.inStock,
        labels.table.order,
        labels.table.delete,
      ]}
      rows={wishes}
      isPending={isPending}
      empty="Your wish list is empty."
    >
      {(wish) => (
        <>
          <ProductThumbnailCell product={wish} />
          <td>{wish.productName}</td>
          <td>{formatPrice(wish.resalePrice)}</td>
          <td>{wish.inStock}</td>
          <td>{renderOrder(wish)}</td>
          <td>
            <DeleteProductButton product={wish} remove={remove} />
          </td>
        </>
      )}
    </DataTable>
  );
}
