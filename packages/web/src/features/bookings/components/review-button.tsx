import { REVIEW_TEXT_MAX_LENGTH, reviewTexts, trustWebTexts } from '@furniture/contract';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { SelectField } from '../../../components/form/select-field.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { api } from '../../../lib/api-client.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';

const starChoices = [5, 4, 3, 2, 1];

/** After a closed sale, the buyer rates the seller (POST /reviews); a second review is refused with the reason. */
export function ReviewButton({ bookingId, productName }: { bookingId: string; productName: string }) {
  const [open, setOpen] = useState(false);
  const [rating, setRating] = useState(5);
  const [text, setText] = useState('');
  const send = useMutation({
    mutationFn: () => api<{ success: boolean; message: string }>('/reviews', { method: 'POST', json: { bookingId, rating, text } }),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await send.mutateAsync();
      notify.success(reviewTexts.saved);
      setOpen(false);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <>
      <button type="button" className="btn btn-sm btn-outline" aria-label={`${trustWebTexts.reviewSeller}: ${productName}`} onClick={() => setOpen(true)}>
        {trustWebTexts.reviewSeller}
      </button>
      <Modal title={trustWebTexts.reviewTitle(productName)} open={open} onClose={() => setOpen(false)}>
        <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-3">
          <SelectField label={trustWebTexts.reviewRating} value={rating} onChange={(event) => setRating(Number(event.target.value))}>
            {starChoices.map((stars) => (
              <option key={stars} value={stars}>
                {trustWebTexts.starOption(stars)}
              </option>
            ))}
          </SelectField>
          <TextareaField label={trustWebTexts.reviewText} value={text} maxLength={REVIEW_TEXT_MAX_LENGTH} onChange={(event) => setText(event.target.value)} />
          <div className="modal-action">
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              {trustWebTexts.cancel}
            </button>
            <button type="submit" className="btn btn-primary" disabled={send.isPending}>
              {trustWebTexts.sendReview}
            </button>
          </div>
        </form>
      </Modal>
    </>
  );
}
