import {
  bookingSentence,
  bookingStepsOf,
  buyerBookingState,
  buyerStock,
  canConfirmReceipt,
  canPay,
  canReportProblem,
  labels,
  protectionState,
  protectionTexts,
  saleTexts,
  uiTexts,
  type Booking,
  type ReportProblemBody,
} from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { DataTable, DeleteProductButton, ProductThumbnail } from '../../../components/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { formatDateTime, formatPrice } from '../../../lib/format.ts';
import { useChangeOrder, type BuyerBookingStep } from '../api/change-booking.ts';
import { useDeleteBooking } from '../api/delete-booking.ts';
import { useReportProblem } from '../api/report-problem.ts';
import { ProblemDialog } from '../components/problem-dialog.tsx';
import { ReviewButton } from '../components/review-button.tsx';
import { SellerEmail } from '../components/seller-email.tsx';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { bookingsQuery } from '../api/get-bookings.ts';

export function MyOrdersRoute() {
  const { user } = useAuth();
  const { data: bookings, isPending } = useQuery({ ...bookingsQuery(user?.email ?? ''), enabled: Boolean(user) });
  const remove = useDeleteBooking();
  const change = useChangeOrder();
  const report = useReportProblem();
  const [reporting, setReporting] = useState<Booking | undefined>();

  async function run(booking: Booking, step: BuyerBookingStep) {
    try {
      notify.success((await change.mutateAsync({ id: booking._id, step })).message);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  async function sendReport(booking: Booking, problem: ReportProblemBody) {
    try {
      notify.success((await report.mutateAsync({ id: booking._id, report: problem })).message);
      setReporting(undefined);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  /** The buyer's step the booking allows: cancel before paying, confirm receipt while the money is held. */
  function buyerStep(booking: Booking) {
    const steps = bookingStepsOf('buyer', buyerBookingState(booking));
    const step: { step: BuyerBookingStep; label: string } | undefined = steps.includes('cancel')
      ? { step: 'cancel', label: saleTexts.cancel }
      : steps.includes('received') && canConfirmReceipt(booking)
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
        columns={[
          { header: labels.table.productImage, cell: (booking) => <ProductThumbnail product={booking} /> },
          // The price and date go with the piece, the meeting place with the seller: seven columns fit beside the menu at 1280 px.
          {
            header: labels.table.productTitle,
            cell: (booking) => (
              <span className="flex flex-col items-end md:items-start">
                <span>{booking.productName}</span>
                <span className="font-semibold">{formatPrice(booking.productPrice)}</span>
                <span className="text-sm">
                  {uiTexts.orders.booked} <time dateTime={booking.bookedAt}>{formatDateTime(booking.bookedAt)}</time>
                </span>
              </span>
            ),
          },
          { header: labels.table.inStock, cell: (booking) => buyerStock(booking) },
          {
            header: uiTexts.orders.seller,
            cell: (booking) => (
              <span className="flex flex-col items-end gap-1 md:items-start">
                {booking.sellerName ? (
                  <>
                    <span>{booking.sellerName}</span>
                    {booking.sellerPhone && (
                      <a href={`tel:${booking.sellerPhone.replace(/[^+0-9]/g, '')}`} className="link">
                        {booking.sellerPhone}
                      </a>
                    )}
                    {booking.productId && <SellerEmail productId={booking.productId} productName={booking.productName} />}
                  </>
                ) : (
                  <span>{uiTexts.orders.sellerGone}</span>
                )}
                <span className="text-sm">
                  {uiTexts.orders.meetingPlace}: {booking.location}
                </span>
              </span>
            ),
          },
          {
            header: labels.table.paymentStatus,
            cell: (booking) =>
              booking.paymentStatus === 'paid' ? (
                <span className="badge badge-success" title={booking.transactionId ?? undefined}>
                  {/* The status word itself, 'paid', as the contract's paymentStatuses name it. */}
                  {booking.paymentStatus}
                </span>
              ) : canPay(buyerBookingState(booking)) ? (
                <Link
                  to={paths.dashboard.payment.getHref(booking._id)}
                  className="btn btn-primary btn-sm"
                  aria-label={`${labels.table.pay} for ${booking.productName}`}
                >
                  {labels.table.pay}
                </Link>
              ) : (
                <span className="badge">{booking.paymentStatus}</span>
              ),
          },
          {
            header: saleTexts.status,
            cell: (booking) => (
              <div className="flex flex-col items-end gap-2 md:min-w-44 md:items-start">
                <span className="badge h-auto">{bookingSentence('buyer', buyerBookingState(booking))}</span>
                {booking.statusReason && <p className="text-sm">{booking.statusReason}</p>}
                {booking.fundsState && (
                  <p className="text-sm">
                    <span className="font-semibold">{protectionTexts.title}: </span>
                    <span>{protectionState(booking, formatDateTime)}</span>
                  </p>
                )}
                {buyerStep(booking)}
                {canReportProblem(booking) && (
                  <button
                    type="button"
                    className="btn btn-sm btn-ghost"
                    aria-label={`${protectionTexts.somethingWrong}: ${booking.productName}`}
                    onClick={() => setReporting(booking)}
                  >
                    {protectionTexts.somethingWrong}
                  </button>
                )}
                {booking.status === 'closed' && <ReviewButton bookingId={booking._id} productName={booking.productName} />}
              </div>
            ),
          },
          {
            header: labels.table.delete,
            // A paid order is the record of the sale: the server keeps it, so no Delete is offered.
            cell: (booking) =>
              booking.paymentStatus === 'paid' ? (
                <span className="text-sm">{uiTexts.orders.paidKeeps}</span>
              ) : (
                <DeleteProductButton product={booking} remove={remove} />
              ),
          },
        ]}
        rows={bookings}
        isPending={isPending}
        empty={{
          text: uiTexts.emptyLists.orders,
          hint: uiTexts.emptyLists.ordersHint,
          action: { label: uiTexts.emptyLists.findFurniture, to: paths.search.getHref() },
        }}
      />
      <ProblemDialog
        key={reporting?._id ?? 'none'}
        productName={reporting?.productName ?? ''}
        open={Boolean(reporting)}
        onClose={() => setReporting(undefined)}
        onReport={(problem) => (reporting ? sendReport(reporting, problem) : Promise.resolve())}
      />
    </section>
  );
}
