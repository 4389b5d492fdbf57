import { buyerBookingState, canPay, messages, serverMessages, uiTexts } from '@furniture/contract';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useAppConfig } from '../../../lib/app-config.ts';
import { formatPrice } from '../../../lib/format.ts';
import { useUserRecord } from '../../../lib/user-record.ts';
import { paymentIntentQuery } from '../api/create-payment-intent.ts';
import { paymentBookingQuery } from '../api/get-payment-booking.ts';
import { useRecordPayment } from '../api/record-payment.ts';
import { CardPayment } from '../components/card-payment.tsx';
import { errorMessage, notify } from '../../../lib/notify.ts';

export function PaymentRoute() {
  const { bookingId = '' } = useParams();
  const { data: booking } = useSuspenseQuery(paymentBookingQuery(bookingId));
  const buyer = useUserRecord();
  const config = useAppConfig();
  const payable = canPay(buyerBookingState(booking));
  const intent = useQuery({ ...paymentIntentQuery(booking._id, booking.productPrice), enabled: payable });
  const recordPayment = useRecordPayment();
  const [transactionId, setTransactionId] = useState<string | null>(booking.transactionId);
  // A charge the server could not turn into a sale (someone else bought the product first) was refunded.
  const [refusal, setRefusal] = useState<string | null>(null);

  // The congratulation waits for the server to record the sale, not just for the card to go through.
  async function handleSucceeded(paymentIntent: { id: string; status: string }) {
    try {
      const response = await recordPayment.mutateAsync({
        status: paymentIntent.status,
        transactionId: paymentIntent.id,
        productId: booking.productId ?? '',
        buyerName: buyer?.name ?? booking.buyerName,
        buyerEmail: buyer?.email ?? booking.buyerEmail,
        bookingId: booking._id,
      });
      setTransactionId(paymentIntent.id);
      notify.success(response.message);
    } catch (error) {
      setRefusal(errorMessage(error));
      notify.error(errorMessage(error));
    }
  }

  return (
    <section aria-labelledby="payment-title" className="max-w-2xl">
      <h1 id="payment-title" className="mb-2 text-2xl font-bold">
        {uiTexts.payment.title(booking.productName)}
      </h1>
      {transactionId ? (
        <p className="mb-6">
          {uiTexts.payment.youPaid.before}
          <strong>{formatPrice(booking.productPrice)}</strong>
          {uiTexts.payment.youPaid.after}
        </p>
      ) : (
        <p className="mb-6">
          {uiTexts.payment.pleasePay.before}
          <strong>{formatPrice(booking.productPrice)}</strong>
          {uiTexts.payment.pleasePay.after}
        </p>
      )}
      {transactionId ? (
        <div className="flex flex-col items-start gap-4">
          <div className="alert alert-success flex w-full flex-col items-start" role="status">
            <p className="font-semibold">{messages.paymentCompleted}</p>
            <p className="max-w-full">
              {uiTexts.payment.transactionId}{' '}
              <span className="font-mono font-bold break-all" data-testid="transaction-id">
                {transactionId}
              </span>
            </p>
          </div>
          <Link to={paths.dashboard.myOrders.getHref()} className="btn btn-primary">
            {uiTexts.payment.backToOrders}
          </Link>
        </div>
      ) : refusal ? (
        <p className="alert alert-error" role="alert">
          {refusal}
        </p>
      ) : !payable ? (
        <p role="status">{`${serverMessages.products.unavailable}.`}</p>
      ) : (
        <>
          <CardPayment
            provider={config.data?.paymentProvider}
            ready={config.isSuccess}
            clientSecret={intent.data ?? null}
            billingDetails={{ name: buyer?.name ?? booking.buyerName, email: buyer?.email ?? booking.buyerEmail }}
            onSucceeded={handleSucceeded}
          />
          {intent.isError && (
            <p className="mt-2 text-red-700" role="alert">
              {intent.error.message}
            </p>
          )}
        </>
      )}
    </section>
  );
}
