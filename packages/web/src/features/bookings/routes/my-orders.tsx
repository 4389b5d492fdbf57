import { isPayable, labels, saleTexts, type Booking } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DataTable, DeleteProductButton, ProductThumbnailCell } from '../../../components/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { formatPrice } from '../../../lib/format.ts';
import { useChangeOrder, type BuyerBookingStep } from '../api/change-booking.ts';
import { useDeleteBooking } from '../api/delete-booking.ts';
import { ReviewButton } from '../components/review-button.tsx';
import { SellerContact } from '../components/seller-contact.tsx';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { bookingsQuery } from '../api/get-bookings.ts';

export function MyOrdersRoute() {
  const { user } = useAuth();
  const { data: bookings, isPending } = useQuery({ ...bookingsQuery(user?.email ?? ''), enabled: Boolean(user) });
  const remove = useDeleteBooking();
  const change = useChangeOrder();

  async function run(booking: Booking, step: BuyerBookingStep) {
    try {
      notify.success((await change.mutateAsync({ id: booking._id, step })).message);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  /** The buyer's step the booking allows: cancel before paying, confirm receipt after. */
  function buyerStep(booking: Booking) {
    const step: { step: BuyerBookingStep; label: string } | undefined =
      booking.status === 'open' || booking.status === 'accepted'
        ? { step: 'cancel', label: saleTexts.cancel }
        : booking.status === 'paid'
          ? { step: 'received', label: saleTexts.received }
          : undefined;
    if (!step) return null;
    return (
      <button
        type="button"
        className="btn btn-sm btn-outline"
        aria-label={`${step.label}: ${booking.productName}`}
        disabled={change.isPending && change.variables?.id === booking._id}
        onClick={() => void run(booking, step.step)}
      >
        {step.label}
      </button>
    );
  }

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
          saleTexts.status,
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
              ) : isPayable(booking) ? (
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
              <span className="badge">{saleTexts.bookingStatus[booking.status]}</span>
              {booking.statusReason && <p className="mt-1 text-sm">{booking.statusReason}</p>}
              <div className="mt-2">{buyerStep(booking)}</div>
              {booking.productId && (
                <div className="mt-2">
                  <SellerContact productId={booking.productId} />
                </div>
              )}
              {booking.status === 'closed' && (
                <div className="mt-2">
                  <ReviewButton bookingId={booking._id} productName={booking.productName} />
                </div>
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
