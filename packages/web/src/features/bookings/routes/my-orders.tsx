import { labels, messages } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Spinner } from '../../../components/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { formatPrice } from '../../../lib/format.ts';
import { useDeleteBooking } from '../api/delete-booking.ts';
import { bookingsQuery } from '../api/get-bookings.ts';
import { notify } from '../../../lib/notify.ts';

export function MyOrdersRoute() {
  const { user } = useAuth();
  const { data: bookings, isPending } = useQuery({ ...bookingsQuery(user?.email ?? ''), enabled: Boolean(user) });
  const remove = useDeleteBooking();

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
    <section aria-labelledby="my-orders-title">
      <h1 id="my-orders-title" className="mb-6 text-2xl font-bold">
        {labels.dashboardMenu.myOrders}
      </h1>
      {isPending ? (
        <Spinner />
      ) : !bookings?.length ? (
        <p>You have no orders yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{labels.table.productImage}</th>
                <th scope="col">{labels.table.productTitle}</th>
                <th scope="col">{labels.booking.productPrice}</th>
                <th scope="col">{labels.table.inStock}</th>
                <th scope="col">{labels.table.paymentStatus}</th>
                <th scope="col">{labels.table.delete}</th>
              </tr>
            </thead>
            <tbody>
              {bookings.map((booking) => (
                <tr key={booking._id}>
                  <td>
                    <img src={booking.productImage} alt={booking.productName} className="h-14 w-14 rounded object-cover" />
                  </td>
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
                    <button
                      type="button"
                      className="btn btn-error btn-sm"
                      aria-label={`${labels.table.delete} ${booking.productName}`}
                      disabled={remove.isPending && remove.variables === booking._id}
                      onClick={() => handleDelete(booking._id)}
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
