import { labels } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DataTable, DeleteProductButton, ProductThumbnailCell } from '../../../components/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { formatPrice } from '../../../lib/format.ts';
import { useDeleteBooking } from '../api/delete-booking.ts';
import { bookingsQuery } from '../api/get-bookings.ts';

export function MyOrdersRoute() {
  const { user } = useAuth();
  const { data: bookings, isPending } = useQuery({ ...bookingsQuery(user?.email ?? ''), enabled: Boolean(user) });
  const remove = useDeleteBooking();

  return (
    <section aria-labelledby="my-orders-title">
      <h1 id="my-orders-title" className="mb-6 text-2xl font-bold">
        {labels.dashboardMenu.myOrders}
      </h1>
      <DataTable
        headers={[
          labels.table.productImage,
          labels.table.productTitle,
          labels.booking.productPrice,
          labels.table.inStock,
          labels.table.paymentStatus,
          labels.table.delete,
        ]}
        rows={bookings}
        isPending={isPending}
        empty="You have no orders yet."
      >
        {(booking) => (
          <>
            <ProductThumbnailCell product={booking} />
            <td>{booking.productName}</td>
            <td>{formatPrice(booking.productPrice)}</td>
            <td>{booking.inStock}</td>
            <td>
              {booking.paymentStatus === 'paid' ? (
                <span className="badge badge-success" title={booking.transactionId ?? undefined}>
                  paid
                </span>
              ) : booking.inStock === 'available' ? (
                <Link
                  to={paths.dashboard.payment.getHref(booking._id)}
                  className="btn btn-primary btn-sm"
                  aria-label={`${labels.table.pay} for ${booking.productName}`}
                >
                  {labels.table.pay}
                </Link>
              ) : (
                <span className="badge">{booking.paymentStatus}</span>
              )}
            </td>
            <td>
              <DeleteProductButton product={booking} remove={remove} />
            </td>
          </>
        )}
      </DataTable>
    </section>
  );
}
