import { bookingSentence, bookingStepsOf, canHandOver, formatCents, sellerBookingState, protectionState, protectionTexts, saleTexts, sellerShareTexts, type SellerBooking } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { formatDateTime, formatPrice } from '../../../lib/format.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { sellerBookingsQuery } from '../../../lib/seller-bookings.ts';
import { useChangeSellerBooking, type SellerBookingStep } from '../api/change-booking.ts';
import { DeclineDialog } from '../components/decline-dialog.tsx';
import { openThreadWithBuyer } from '../api/message-buyer.ts';
import { paths } from '../../../config/paths.ts';
import { thumbnailOf } from '../../../lib/image-sources.ts';

/** The bookings of each product, the products in the order of their newest booking. */
function groupByProduct(bookings: SellerBooking[]) {
  const groups = new Map<string, { productName: string; productImage: string; productPrice: number; bookings: SellerBooking[] }>();
  for (const booking of bookings) {
    const key = booking.productId ?? booking._id;
    const group = groups.get(key) ?? { productName: booking.productName, productImage: booking.productImage, productPrice: booking.productPrice, bookings: [] };
    group.bookings.push(booking);
    groups.set(key, group);
  }
  return [...groups.entries()];
}

/** Bookings on my products: who booked, where they want to meet, and the steps each booking allows. */
export function SellerBookingsRoute() {
  const { data: bookings, isPending } = useQuery(sellerBookingsQuery());
  const change = useChangeSellerBooking();
  const [declining, setDeclining] = useState<SellerBooking | undefined>();
  // Handing over closes the sale for good: the seller confirms it first.
  const [handingOver, setHandingOver] = useState<SellerBooking | undefined>();
  // So does a refund: the dialog names the buyer and the amount that goes back.
  const [refunding, setRefunding] = useState<SellerBooking | undefined>();
  const navigate = useNavigate();

  async function messageBuyer(booking: SellerBooking) {
    try {
      await navigate(paths.dashboard.messages.getHref(await openThreadWithBuyer(booking._id)));
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  async function run(booking: SellerBooking, step: SellerBookingStep, reason?: string) {
    try {
      const response = await change.mutateAsync({ id: booking._id, step, ...(reason ? { reason } : {}) });
      notify.success(response.message);
      setDeclining(undefined);
      setHandingOver(undefined);
      setRefunding(undefined);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  function actions(booking: SellerBooking) {
    const busy = change.isPending && change.variables?.id === booking._id;
    const button = (step: SellerBookingStep, label: string, className: string, onClick: () => void = () => void run(booking, step)) => (
      <button type="button" className={`btn btn-sm ${className}`} aria-label={`${label}: ${booking.buyerName}`} disabled={busy} onClick={onClick}>
        {label}
      </button>
    );
    const steps = bookingStepsOf('seller', sellerBookingState(booking));
    return (
      <div className="flex flex-wrap gap-2">
        {steps.includes('accept') && button('accept', saleTexts.accept, 'btn-primary')}
        {steps.includes('decline') && button('decline', saleTexts.decline, 'btn-outline', () => setDeclining(booking))}
        {/* A reported problem freezes the money, and the server refuses the handover until an admin decides. */}
        {steps.includes('handover') && canHandOver(booking) && button('handover', saleTexts.handover, 'btn-primary', () => setHandingOver(booking))}
        {steps.includes('refund') && button('refund', saleTexts.refund, 'btn-outline btn-error', () => setRefunding(booking))}
        <button type="button" className="btn btn-sm btn-ghost" aria-label={`${saleTexts.messageBuyer}: ${booking.buyerName}`} onClick={() => void messageBuyer(booking)}>
          {saleTexts.messageBuyer}
        </button>
      </div>
    );
  }

  return (
    <section aria-labelledby="seller-bookings-title">
      <h1 id="seller-bookings-title" className="mb-6 text-2xl font-bold">
        {saleTexts.sellerBookingsTitle}
      </h1>
      {isPending ? (
        <Spinner />
      ) : !bookings?.length ? (
        <p>{saleTexts.noSellerBookings}</p>
      ) : (
        groupByProduct(bookings).map(([key, group]) => (
          <section key={key} aria-label={group.productName} className="mb-8">
            <h2 className="mb-3 flex items-center gap-3 text-lg font-semibold">
              <img src={thumbnailOf(group.productImage)} alt="" width={48} height={48} className="h-12 w-12 rounded object-cover" />
              <span>
                {group.productName} <span className="font-normal">{formatPrice(group.productPrice)}</span>
              </span>
            </h2>
            <ul className="flex flex-col gap-3">
              {group.bookings.map((booking) => (
                <li key={booking._id} className="card card-border bg-base-100">
                  <div className="card-body gap-2 p-4">
                    <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-2">
                      <div>
                        <dt className="inline font-semibold">{saleTexts.buyer}: </dt>
                        <dd className="inline">{booking.buyerName}</dd>
                      </div>
                      <div>
                        <dt className="inline font-semibold">{saleTexts.phone}: </dt>
                        <dd className="inline">
                          <a className="link" href={`tel:${booking.phoneNumber}`}>
                            {booking.phoneNumber}
                          </a>
                        </dd>
                      </div>
                      <div>
                        <dt className="inline font-semibold">{saleTexts.meetingLocation}: </dt>
                        <dd className="inline">{booking.location}</dd>
                      </div>
                      <div>
                        <dt className="inline font-semibold">{saleTexts.bookedAt}: </dt>
                        <dd className="inline">{formatDateTime(booking.bookedAt)}</dd>
                      </div>
                      <div>
                        <dt className="inline font-semibold">{sellerShareTexts.agreedPrice}: </dt>
                        <dd className="inline">
                          {formatCents(booking.agreedPriceCents)}:{' '}
                          <span className="font-semibold">{sellerShareTexts.youReceive(formatCents(booking.sellerReceivesCents))}</span>{' '}
                          ({sellerShareTexts.fee(formatCents(booking.feeCents))})
                        </dd>
                      </div>
                      <div>
                        <dt className="inline font-semibold">{saleTexts.status}: </dt>
                        <dd className="inline">
                          <span className="badge h-auto">{bookingSentence('seller', sellerBookingState(booking))}</span>{' '}
                          {booking.paid ? saleTexts.paid : saleTexts.notPaid}
                        </dd>
                      </div>
                      {booking.statusReason && (
                        <div>
                          <dt className="inline font-semibold">{saleTexts.reason}: </dt>
                          <dd className="inline">{booking.statusReason}</dd>
                        </div>
                      )}
                      {booking.fundsState && (
                        <div>
                          <dt className="inline font-semibold">{protectionTexts.title}: </dt>
                          <dd className="inline">{protectionState(booking, formatDateTime)}</dd>
                        </div>
                      )}
                    </dl>
                    {actions(booking)}
                  </div>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
      <Modal
        title={handingOver ? saleTexts.confirmHandover.title(handingOver.productName, handingOver.buyerName) : ''}
        open={Boolean(handingOver)}
        onClose={() => setHandingOver(undefined)}
      >
        <p>{saleTexts.confirmHandover.body}</p>
        <div className="modal-action">
          <button type="button" className="btn" data-autofocus onClick={() => setHandingOver(undefined)}>
            {saleTexts.confirmHandover.cancel}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={change.isPending}
            onClick={() => void (handingOver && run(handingOver, 'handover'))}
          >
            {saleTexts.confirmHandover.confirm}
          </button>
        </div>
      </Modal>
      <Modal
        title={refunding ? saleTexts.confirmRefund.title(refunding.buyerName, formatPrice(refunding.productPrice)) : ''}
        open={Boolean(refunding)}
        onClose={() => setRefunding(undefined)}
      >
        <p>{refunding && saleTexts.confirmRefund.body(refunding.productName)}</p>
        <div className="modal-action">
          <button type="button" className="btn" data-autofocus onClick={() => setRefunding(undefined)}>
            {saleTexts.confirmRefund.cancel}
          </button>
          <button
            type="button"
            className="btn btn-error"
            disabled={change.isPending}
            onClick={() => void (refunding && run(refunding, 'refund'))}
          >
            {saleTexts.confirmRefund.confirm}
          </button>
        </div>
      </Modal>
      <DeclineDialog
        key={declining?._id ?? 'none'}
        buyerName={declining?.buyerName ?? ''}
        open={Boolean(declining)}
        onClose={() => setDeclining(undefined)}
        onDecline={(reason) => (declining ? run(declining, 'decline', reason) : Promise.resolve())}
      />
    </section>
  );
}
