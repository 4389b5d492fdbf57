import { texts } from '@furniture/contract';
import { Modal } from '../../../components/modal.tsx';
import { BookingFormBody } from './booking-form.tsx';
import type { BookableProduct } from '../api/add-booking.ts';

/** The 'Product Booking' modal; it closes on Cancel, Escape, or once the booking succeeded. */
export default function BookingModal({
  product,
  open,
  onClose,
  onBooked,
}: {
  product: BookableProduct;
  open: boolean;
  onClose: () => void;
  onBooked?: () => void | Promise<void>;
}) {
  return (
    <Modal title={texts.bookingTitle} open={open} onClose={onClose}>
      <BookingFormBody
        product={product}
        onCancel={onClose}
        onBooked={async () => {
          onClose();
          await onBooked?.();
        }}
      />
    </Modal>
  );
}
