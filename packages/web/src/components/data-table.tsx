import { labels, messages, uiTexts } from '@furniture/contract';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { errorMessage, notify } from '../lib/notify.ts';
import { Modal } from './modal.tsx';
import { Spinner } from './spinner.tsx';
import { thumbnailOf } from '../lib/image-sources.ts';

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
  empty: EmptyList;
};

/** What an empty list says, why it would fill, and the step that fills it. */
export interface EmptyList {
  text: string;
  hint?: string;
  action?: { label: string; to: string };
}

function EmptyState({ text, hint, action }: EmptyList) {
  return (
    <div className="flex flex-col items-start gap-3">
      <p>{text}</p>
      {hint && <p className="text-base-content/70">{hint}</p>}
      {action && (
        <Link to={action.to} className="btn btn-primary btn-sm">
          {action.label}
        </Link>
      )}
    </div>
  );
}

/**
 * A dashboard list: a spinner while it loads, a message when it is empty, else a table. Below the
 * `md` width each row becomes a card listing its cells under their headers (the `data-label` the
 * stylesheet shows), so every action stays on screen without scrolling sideways.
 */
export function DataTable<Row extends { _id: string }>({ columns, rows, isPending, empty }: DataTableProps<Row>) {
  if (isPending) return <Spinner />;
  if (!rows?.length) return <EmptyState {...empty} />;
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
  return <img src={thumbnailOf(product.productImage)} alt={product.productName} width={56} height={56} className="h-14 w-14 rounded object-cover" />;
}

/**
 * A row's Delete button; its accessible name says what it deletes. Nothing is deleted on one
 * click: a dialog names what will go and asks first, with Keep it focused.
 */
export function DeleteButton({ name, disabled, onConfirm }: { name: string; disabled: boolean; onConfirm: () => void }) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-error btn-sm" aria-label={`${labels.table.delete} ${name}`} disabled={disabled} onClick={() => setAsking(true)}>
        {labels.table.delete}
      </button>
      <Modal title={uiTexts.confirmDelete.title(name)} open={asking} onClose={() => setAsking(false)}>
        <p>{uiTexts.confirmDelete.body}</p>
        <div className="modal-action">
          <button type="button" className="btn" data-autofocus onClick={() => setAsking(false)}>
            {uiTexts.confirmDelete.cancel}
          </button>
          <button
            type="button"
            className="btn btn-error"
            onClick={() => {
              setAsking(false);
              onConfirm();
            }}
          >
            {labels.table.delete}
          </button>
        </div>
      </Modal>
    </>
  );
}

/** The delete mutation of a product table, keyed by the row's id. */
interface DeleteRowMutation {
  isPending: boolean;
  variables: string | undefined;
  mutateAsync: (id: string) => Promise<{ deletedCount?: number }>;
}

/**
 * Delete in the orders, products and wishes tables, with the success message section 8 gives all
 * three. A refused delete says why (the server's reason).
 */
export function DeleteProductButton({ product, remove }: { product: ProductRow; remove: DeleteRowMutation }) {
  async function handleDelete() {
    try {
      const response = await remove.mutateAsync(product._id);
      if (response.deletedCount) notify.success(messages.productDeleted);
      else notify.error(uiTexts.deleteFailed);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return <DeleteButton name={product.productName} disabled={remove.isPending && remove.variables === product._id} onConfirm={handleDelete} />;
}
