import { zodResolver } from '@hookform/resolvers/zod';
import { declineBookingBody, labels, saleTexts, type DeclineBookingBody } from '@furniture/contract';
import { useForm } from 'react-hook-form';
import { SubmitButton } from '../../../components/form/submit-button.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { Modal } from '../../../components/modal.tsx';

/** Asks the seller for the short reason the buyer will read in My Orders. */
export function DeclineDialog({
  buyerName,
  open,
  onClose,
  onDecline,
}: {
  buyerName: string;
  open: boolean;
  onClose: () => void;
  onDecline: (reason: string) => Promise<void>;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<DeclineBookingBody>({ resolver: zodResolver(declineBookingBody), defaultValues: { reason: '' } });

  return (
    <Modal title={`${saleTexts.declineTitle}: ${buyerName}`} open={open} onClose={onClose}>
      <form noValidate onSubmit={handleSubmit(({ reason }) => onDecline(reason))} className="flex flex-col gap-4">
        <TextareaField label={saleTexts.declineReason} rows={3} error={errors.reason?.message} {...register('reason')} />
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose}>
            {labels.booking.cancel}
          </button>
          <SubmitButton busy={isSubmitting}>
            {saleTexts.declineConfirm}
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
