import { labels, saleTexts, uiTexts, type Wish } from '@furniture/contract';
import type { ReactNode } from 'react';
import { DataTable, DeleteProductButton, ProductThumbnail } from '../../../components/data-table.tsx';
import { paths } from '../../../config/paths.ts';
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
      columns={[
        { header: labels.table.productImage, cell: (wish) => <ProductThumbnail product={wish} /> },
        { header: labels.table.productTitle, cell: (wish) => wish.productName },
        { header: labels.product.resalePrice, cell: (wish) => formatPrice(wish.resalePrice) },
        { header: labels.table.inStock, cell: (wish) => saleTexts.listingState[wish.state].visitor },
        { header: labels.table.order, cell: renderOrder },
        { header: labels.table.delete, cell: (wish) => <DeleteProductButton product={wish} remove={remove} /> },
      ]}
      rows={wishes}
      isPending={isPending}
      empty={{
        text: uiTexts.emptyLists.wishes,
        hint: uiTexts.emptyLists.wishesHint,
        action: { label: uiTexts.emptyLists.findFurniture, to: paths.search.getHref() },
      }}
    />
  );
}
