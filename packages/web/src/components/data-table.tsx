import { labels, messages } from '@furniture/contract';
import type { ReactNode } from 'react';
import { notify } from '../lib/notify.ts';
import { Spinner } from './spinner.tsx';

// The dashboard's tables and the cells they share sit in one module so that their routes share
// one chunk: every extra chunk adds an entry to the route preload map in Home's first load.

/** One column of a dashboard list: its header, and what a row shows under it. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
}

type DataTableProps<Row extends { _id: string }> = {
  columns: Column<Row>[];
  rows: Row[] | undefined;
  isPending: boolean;
  /** Shown instead of the table when there are no rows. */
  empty: string;
};

/**
 * A dashboard list: a spinner while it loads, a message when it is empty, else a table. Below the
 * `md` width each row becomes a card listing its cells under their headers (the `data-label` the
 * stylesheet shows), so every action stays on screen without scrolling sideways.
 */
export function DataTable<Row extends { _id: string }>({ columns, rows, isPending, empty }: DataTableProps<Row>) {
  if (isPending) return <Spinner />;
  if (!rows?.length) return <p>{empty}</p>;
  return (
    <table className="table data-table">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row._id}>
            {columns.map((column) => (
              <td key={column.header} data-label={column.header}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface ProductRow {
  _id: string;
  productName: string;
  productImage: string;
}

/** A product's photo in a table row, described by the product's name. */
export function ProductThumbnail({ product }: { product: ProductRow }) {
  return <img src={product.productImage} alt={product.productName} className="h-14 w-14 rounded object-cover" />;
}

/** A row's Delete button; its accessible name says what it deletes. */
export function DeleteButton({ name, disabled, onClick }: { name: string; disabled: boolean; onClick: () => void }) {
  return (
    <button type="button" className="btn btn-error btn-sm" aria-label={`${labels.table.delete} ${name}`} disabled={disabled} onClick={onClick}>
      {labels.table.delete}
    </button>
  );
}

/** The delete mutation of a product table, keyed by the row's id. */
interface DeleteRowMutation {
  isPending: boolean;
  variables: string | undefined;
  mutateAsync: (id: string) => Promise<{ deletedCount?: number }>;
}

/**
 * Delete in the orders, products and wishes tables. Section 8 gives all three the same success
 * message, and a failed delete is silent.
 */
export function DeleteProductButton({ product, remove }: { product: ProductRow; remove: DeleteRowMutation }) {
  async function handleDelete() {
    try {
      const response = await remove.mutateAsync(product._id);
      if (response.deletedCount) notify.success(messages.productDeleted);
    } catch (error) {
      console.error(error);
    }
  }

  return <DeleteButton name={product.productName} disabled={remove.isPending && remove.variables === product._id} onClick={handleDelete} />;
}
