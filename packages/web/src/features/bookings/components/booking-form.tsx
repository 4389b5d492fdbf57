import { zodResolver } from '@hookform/resolvers/zod';
import { addBookingBody, labels } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextField } from '../../../components/form/text-field.tsx';
import { formatPrice } from '../../../lib/format.ts';
import { ownAccountQuery } from '../../../lib/own-account.ts';
import { useUserRecord } from '../../../lib/user-record.ts';
import { useAddBooking, type BookableProduct } from '../api/add-booking.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';

const bookingForm = addBookingBody.pick({ phoneNumber: true, location: true });
type BookingFormInput = z.input<typeof bookingForm>;
type BookingForm = z.output<typeof bookingForm>;

/** The form inside the 'Product Booking' modal: read-only buyer and product, editable phone and place. */
export function BookingFormBody({
  product,
  onCancel,
  onBooked,
}: {
  product: BookableProduct;
  onCancel: () => void;
  onBooked: () => void | Promise<void>;
}) {
  const buyer = useUserRecord();
  const addBooking = useAddBooking();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<BookingFormInput, unknown, BookingForm>({
    resolver: zodResolver(bookingForm),
    defaultValues: { phoneNumber: '', location: '' },
  });
  // The phone and town of the account's settings, unless the buyer has typed others already.
  const { data: own } = useQuery(ownAccountQuery());
  useEffect(() => {
    if (own) reset({ phoneNumber: own.phone ?? '', location: own.location ?? '' }, { keepDirtyValues: true });
  }, [own, reset]);

  async function onSubmit(values: BookingForm) {
    if (!buyer) return;
    try {
      const response = await addBooking.mutateAsync({
        productId: product.productId,
        buyerName: buyer.name,
        buyerEmail: buyer.email,
        productName: product.productName,
        productPrice: product.productPrice,
        productImage: product.productImage,
        inStock: product.inStock,
        phoneNumber: values.phoneNumber,
        location: values.location,
      });
      notify.success(response.message);
      await onBooked();
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-3">
      <TextField label={labels.booking.buyerName} value={buyer?.name ?? ''} readOnly />
      <TextField label={labels.booking.buyerEmail} type="email" value={buyer?.email ?? ''} readOnly />
      <TextField label={labels.booking.productName} value={product.productName} readOnly />
      <TextField label={labels.booking.productPrice} value={formatPrice(product.productPrice)} readOnly />
      <TextField
        label={labels.booking.phoneNumber}
        type="tel"
        inputMode="numeric"
        autoComplete="tel"
        data-autofocus
        error={errors.phoneNumber?.message}
        {...register('phoneNumber')}
      />
      <TextField label={labels.booking.meetingLocation} error={errors.location?.message} {...register('location')} />
      <div className="modal-action">
        <button type="button" className="btn" onClick={onCancel}>
          {labels.booking.cancel}
        </button>
        <SubmitButton busy={isSubmitting} disabled={isSubmitting || !buyer}>
          {labels.booking.confirm}
        </SubmitButton>
      </div>
    </form>
  );
}
