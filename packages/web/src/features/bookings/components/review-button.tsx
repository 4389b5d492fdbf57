import { REVIEW_TEXT_MAX_LENGTH, reviewTexts, trustWebTexts } from '@furniture/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { SelectField } from '../../../components/form/select-field.tsx';
import { TextareaField } from '../../../components/form/textarea-field.tsx';
import { api } from '../../../lib/api-client.ts';

const starChoices = [5, 4, 3, 2, 1];

/** After a closed sale, the buyer rates the seller (POST /reviews); a second review is refused with the reason. */
export function ReviewButton({ bookingId, productName }: { bookingId: string; productName: string }) {
  const [rating, setRating] = useState(5);
  const [text, setText] = useState('');
  const send = useMutation({
    mutationFn: () => api<{ success: boolean; message: string }>('/reviews', { method: 'POST', json: { bookingId, rating, text } }),
  });

  return (
    <FormDialog
      buttonText={trustWebTexts.reviewSeller}
      label={`${trustWebTexts.reviewSeller}: ${productName}`}
      buttonClassName="btn btn-sm btn-outline"
      title={trustWebTexts.reviewTitle(productName)}
      submitText={trustWebTexts.sendReview}
      pending={send.isPending}
      send={() => send.mutateAsync().then(() => reviewTexts.saved)}
    >
      <SelectField label={trustWebTexts.reviewRating} value={rating} onChange={(event) => setRating(Number(event.target.value))}>
        {starChoices.map((stars) => (
          <option key={stars} value={stars}>
            {trustWebTexts.starOption(stars)}
          </option>
        ))}
      </SelectField>
      <TextareaField label={trustWebTexts.reviewText} value={text} maxLength={REVIEW_TEXT_MAX_LENGTH} onChange={(event) => setText(event.target.value)} />
    </FormDialog>
  );
}
